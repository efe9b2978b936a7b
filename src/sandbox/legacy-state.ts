// States kept before the table-a-resource database: JSON files of versions 1-4 (state-file.ts reads them) and the
// first database layout (a state document and prospect shards). Their records are laid into the resource tables.
import type { SandboxDb } from './db/sandbox-db.js';
import type { TableSpec } from './db/table.js';
import type {
  AccountMeta,
  AttributeRecord,
  BulkActionRecord,
  DncItemRecord,
  DncListRecord,
  DomainRecord,
  EnrichmentRecord,
  FieldRecord,
  ImportJobRecord,
  InboxCategoryRecord,
  ProspectRecord,
  ReportRecord,
  ScheduleRecord,
  SequenceRecord,
  TaskRecord,
  WebhookRecord,
} from './model.js';
import { dncItemsTable, dncListsTable } from './resources/dnc/tables.js';
import { domainsTable } from './resources/domains/index.js';
import { fieldsTable } from './resources/fields/index.js';
import { inboxCategoriesTable } from './resources/inbox/index.js';
import { enrichmentsTable, revealedTable } from './resources/people/index.js';
import { attributesTable, importsTable, prospectsTable } from './resources/prospects/tables.js';
import { reportsTable } from './resources/reports/index.js';
import { schedulesTable } from './resources/schedules/index.js';
import { sequencesTable } from './resources/sequences/table.js';
import { bulkActionsTable, tasksTable } from './resources/tasks/tables.js';
import { webhooksTable } from './resources/webhooks/table.js';

/** A prospect as older states kept it: its attribute records inside it. */
export type LegacyProspect = ProspectRecord & { attributes?: Array<Omit<AttributeRecord, 'prospectId'>> };

/** The state document of version 4 (older ones are brought up to it first), without its prospects. */
export interface LegacyState extends Omit<AccountMeta, 'enrichmentStarts'> {
  version: 4;
  enrichmentStarts?: number[];
  inboxCategories: InboxCategoryRecord[];
  fields: FieldRecord[];
  sequences: SequenceRecord[];
  tasks: TaskRecord[];
  dncLists: Array<DncListRecord & { items: Array<Omit<DncItemRecord, 'listId'>> }>;
  domains: DomainRecord[];
  schedules: ScheduleRecord[];
  webhooks: WebhookRecord[];
  imports: ImportJobRecord[];
  bulkActions: BulkActionRecord[];
  reports: ReportRecord[];
  enrichments: EnrichmentRecord[];
  revealed: string[];
}

/** Lays an older state's records into the tables (of a database in a transaction, with no records yet). The search
 * display limit and enrichment limits it kept are settings now (`sandbox start`), and are not carried over. */
export function importLegacy(db: SandboxDb, state: LegacyState, prospects: Iterable<LegacyProspect>): void {
  const { account, counter, seededAt, enrichmentStarts = [] } = state;
  db.putMeta('account', { account, counter, seededAt, enrichmentStarts } satisfies AccountMeta);
  const putAll = <T>(spec: TableSpec<T>, records: T[] = []) => {
    const table = db.table(spec);
    for (const record of records) table.put(record);
  };
  putAll(inboxCategoriesTable, state.inboxCategories);
  putAll(fieldsTable, state.fields);
  putAll(schedulesTable, state.schedules);
  putAll(sequencesTable, state.sequences);
  putAll(tasksTable, state.tasks);
  putAll(bulkActionsTable, state.bulkActions);
  putAll(domainsTable, state.domains);
  putAll(webhooksTable, state.webhooks);
  putAll(importsTable, state.imports);
  putAll(reportsTable, state.reports);
  putAll(enrichmentsTable, state.enrichments);
  putAll(
    revealedTable,
    (state.revealed ?? []).map((key) => ({ key })),
  );
  for (const { items, ...list } of state.dncLists ?? []) {
    putAll(dncListsTable, [list]);
    putAll(
      dncItemsTable,
      items.map((item) => ({ ...item, listId: list.id })),
    );
  }
  const prospectRows = db.table(prospectsTable);
  const attributeRows = db.table(attributesTable);
  for (const { attributes = [], ...prospect } of prospects) {
    prospectRows.put(prospect);
    for (const attribute of attributes) attributeRows.put({ ...attribute, prospectId: prospect.id });
  }
}
