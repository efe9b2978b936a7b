// How the sandbox applies one imported prospect: the four conflict actions and the per-row status codes of spec.md.
import type { ConflictAction } from '../../../api/contract/prospects.js';
import type { Table } from '../../db/table.js';
import type { FieldRecord, ProspectRecord, SequenceRecord } from '../../model.js';
import type { Store } from '../../store.js';
import { allFields } from '../fields/index.js';
import { sequencesTable } from '../sequences/table.js';
import { prospectsTable } from './tables.js';

export interface ImportOptions {
  conflictAction: ConflictAction;
  stepId?: string;
  tags?: string[];
  verify?: boolean;
}

export interface RowOutcome {
  email: string;
  status: number;
  reason?: string;
}

// Deliberately simple: the client does the strict checks; this catches what a service would refuse.
const emailShape = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface ImportContext {
  store: Store;
  prospects: Table<ProspectRecord>;
  ownerId: string;
  options: ImportOptions;
  fieldsById: Map<string, FieldRecord>;
  emailFieldId: string;
  step?: { sequence: SequenceRecord; stepId: string };
  /** Emails seen in this request, for 10600. */
  seen: Set<string>;
  /** The fields whose values are checked for their type (10300), by id. */
  typedFields: Map<string, FieldRecord>;
}

export function createImportContext(store: Store, options: ImportOptions): ImportContext {
  const fields = allFields(store);
  const fieldsById = new Map(fields.map((f) => [f.id, f]));
  const emailField = fields.find((f) => f.isSystem && f.label === 'Email');
  if (!emailField) throw new Error('the seed has no Email field');
  let step: ImportContext['step'];
  if (options.stepId) {
    const sequence = store
      .table(sequencesTable)
      .all()
      .find((s) => s.steps.some((st) => st.id === options.stepId));
    if (sequence) step = { sequence, stepId: options.stepId };
  }
  const typedFields = new Map(fields.filter((f) => typed.has(f.fieldType)).map((f) => [f.id, f]));
  return {
    store,
    prospects: store.table(prospectsTable),
    ownerId: store.account().ownerId,
    options,
    fieldsById,
    emailFieldId: emailField.id,
    step,
    seen: new Set(),
    typedFields,
  };
}

const typed = new Set<FieldRecord['fieldType']>(['number', 'currency', 'date']);

function typeMismatch(field: FieldRecord, value: string): boolean {
  if (value === '') return false;
  if (field.fieldType === 'date') return Number.isNaN(Date.parse(value));
  return !/^-?\d+(\.\d+)?$/.test(value.trim());
}

/** The values a new prospect keeps: every field but the email, blanks left out. */
function storedValues(values: Record<string, string>, emailFieldId: string): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const id in values) if (id !== emailFieldId && values[id] !== '') kept[id] = values[id]!;
  return kept;
}

/** Applies one prospect given as values by field id; returns its status code. */
export function importOne(ctx: ImportContext, values: Record<string, string>): RowOutcome {
  const email = (values[ctx.emailFieldId] ?? '').trim();
  const key = email.toLowerCase();
  // Two addresses in one cell ("a@x.com; b@y.com") is its own code.
  if (/[,;]/.test(email) && (email.match(/@/g) ?? []).length > 1) return { email, status: 10900 };
  if (!emailShape.test(email)) return { email, status: 10100 };
  if (ctx.seen.has(key)) return { email, status: 10600 };
  ctx.seen.add(key);
  // The first mismatch in the row's own order is the one named.
  for (const fieldId in values) {
    const field = ctx.typedFields.get(fieldId);
    const value = values[fieldId]!;
    if (field && typeMismatch(field, value))
      return { email, status: 10300, reason: `${field.label}: "${value}" is not a ${field.fieldType}` };
  }

  const existing = ctx.prospects.first('email_key = ?', key);
  if (existing?.status === 'bounced') return { email, status: 10700 };
  if (existing?.status === 'unsubscribed') return { email, status: 10800 };
  if (existing && existing.ownerId !== ctx.ownerId) return { email, status: 11000 };

  if (ctx.step && existing) {
    const { sequence, stepId } = ctx.step;
    const sameSequence = existing.sequences.find((m) => m.sequenceId === sequence.id);
    if (sameSequence && sameSequence.stepId !== stepId) return { email, status: 10200 };
    if (existing.sequences.some((m) => m.sequenceId !== sequence.id && m.state === 'active'))
      return { email, status: 12000 };
  }

  if (!existing) {
    const prospect: ProspectRecord = {
      id: ctx.store.id(),
      email,
      values: storedValues(values, ctx.emailFieldId),
      status: 'active',
      ownerId: ctx.ownerId,
      tags: [...(ctx.options.tags ?? [])],
      verificationStatus: ctx.options.verify ? 'inProgress' : 'pending',
      sequences: [],
    };
    addToStep(ctx, prospect);
    ctx.prospects.put(prospect);
    return { email, status: 10000 };
  }

  const changed = applyConflictAction(ctx.options.conflictAction, existing, values, ctx.emailFieldId);
  const joined = addToStep(ctx, existing);
  const tagged = addTags(existing, ctx.options.tags);
  if (ctx.options.verify) existing.verificationStatus = 'inProgress';
  if (changed || joined || tagged || ctx.options.verify) ctx.prospects.put(existing);
  if (changed || joined) return { email, status: 10000 };
  if (ctx.options.conflictAction === 'overwrite') return { email, status: 10500 };
  return { email, status: 10400 };
}

/** Returns whether any stored value changed. */
function applyConflictAction(
  action: ConflictAction,
  prospect: ProspectRecord,
  values: Record<string, string>,
  emailFieldId: string,
): boolean {
  let changed = false;
  for (const [fieldId, value] of Object.entries(values)) {
    if (fieldId === emailFieldId) continue;
    const current = prospect.values[fieldId] ?? '';
    let next = current;
    switch (action) {
      case 'noUpdate':
        break;
      case 'overwrite': // updates existing values, never fills an empty one
        if (current !== '' && value !== '') next = value;
        break;
      case 'addMissingFields': // fills only empty ones
        if (current === '' && value !== '') next = value;
        break;
      case 'upsert': // updates and fills; a blank value clears
        next = value;
        break;
    }
    if (next !== current) {
      changed = true;
      if (next === '') delete prospect.values[fieldId];
      else prospect.values[fieldId] = next;
    }
  }
  return changed;
}

function addToStep(ctx: ImportContext, prospect: ProspectRecord): boolean {
  if (!ctx.step) return false;
  const { sequence, stepId } = ctx.step;
  if (prospect.sequences.some((m) => m.sequenceId === sequence.id && m.stepId === stepId)) return false;
  prospect.sequences.push({ sequenceId: sequence.id, stepId, state: 'active' });
  return true;
}

/** Returns whether a tag was added. */
function addTags(prospect: ProspectRecord, tags: string[] | undefined): boolean {
  const before = prospect.tags.length;
  for (const tag of tags ?? [])
    if (!prospect.tags.some((t) => t.toLowerCase() === tag.toLowerCase())) prospect.tags.push(tag);
  return prospect.tags.length !== before;
}
