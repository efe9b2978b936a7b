// The asynchronous import by field name: every row applied now (import-rows.ts), a job that reports completion after
// importDelayMs, and a CSV of the rows that failed. The sequence-scoped import takes the same body, its step required.
import { stringify } from 'csv-stringify/sync';
import { importStatusMeaning, maxImportRows, type ImportByNameBody } from '../../../api/contract/prospects.js';
import { formatCount } from '../../../format.js';
import type { SandboxResponse } from '../../route.js';
import { badRequest } from '../../sandbox-error.js';
import type { Store } from '../../store.js';
import { allFields } from '../fields/index.js';
import { addReport } from '../reports/index.js';
import { sequencesTable } from '../sequences/table.js';
import { createImportContext, importOne, type ImportOptions, type RowOutcome } from './import-rows.js';
import { importsTable } from './tables.js';

/** An asynchronous import reports completion this long after it was accepted: a base delay plus 1 ms per 100 rows. */
export function importDelayMs(rows: number): number {
  return 800 + Math.ceil(rows / 100);
}

export function checkStep(store: Store, stepId: string | undefined): void {
  if (
    stepId &&
    !store
      .table(sequencesTable)
      .all()
      .some((s) => s.steps.some((st) => st.id === stepId))
  ) {
    throw badRequest(`Step ${stepId} does not exist`);
  }
}

function failedRowsCsv(outcomes: Array<RowOutcome & { position: number }>): string {
  return stringify([
    ['Row', 'Email', 'Status Code', 'Reason'],
    ...outcomes.map((o) => [o.position, o.email, o.status, o.reason ?? importStatusMeaning(o.status)]),
  ]);
}

/** The asynchronous import by field name (also the sequence-scoped import's: its body, with the step required). */
export function importByName(body: ImportByNameBody, store: Store): SandboxResponse {
  if (body.prospectList.length > maxImportRows)
    throw badRequest(
      `Up to ${formatCount(maxImportRows)} prospects can be imported per request; ` +
        `got ${formatCount(body.prospectList.length)}`,
    );
  if (body.prospectList.length === 0) throw badRequest('prospectList is empty');
  checkStep(store, body.stepId);
  // Field names must already exist (spec.md), matched as labels; each name is looked up once, not once a row.
  const idByLabel = new Map(allFields(store).map((f) => [f.label.toLowerCase(), f.id]));
  const idByName = new Map<string, string | undefined>();
  for (const prospect of body.prospectList)
    for (const name in prospect) if (!idByName.has(name)) idByName.set(name, idByLabel.get(name.toLowerCase()));
  const unknown = [...idByName].filter(([, id]) => id === undefined).map(([name]) => name);
  if (unknown.length) throw badRequest(`Unknown field names: ${unknown.join(', ')}`);
  if (![...idByName.keys()].some((name) => name.toLowerCase() === 'email'))
    throw badRequest('Every prospect needs an Email field');

  const options: ImportOptions = {
    conflictAction: body.conflictAction,
    stepId: body.stepId,
    tags: body.tags,
    verify: body.verifyProspects,
  };
  const ctx = createImportContext(store, options);
  const failed: Array<RowOutcome & { position: number }> = [];
  body.prospectList.forEach((prospect, index) => {
    const values: Record<string, string> = {};
    for (const name in prospect) values[idByName.get(name)!] = prospect[name]!;
    const outcome = importOne(ctx, values);
    if (outcome.status !== 10000) failed.push({ ...outcome, position: index + 1 });
  });
  const requestId = store.id();
  const reportId = failed.length ? addReport(store, failedRowsCsv(failed)) : undefined;
  const now = store.now();
  store.table(importsTable).put({
    requestId,
    createdAt: now,
    completesAt: now + importDelayMs(body.prospectList.length),
    total: body.prospectList.length,
    reportId,
    failedCount: failed.length,
  });
  return { status: 201, body: { message: 'Prospects import started', payload: { requestId } } };
}
