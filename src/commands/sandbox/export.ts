import { resolve } from 'node:path';
import { arg, flag } from '../../cli/flags.js';
import { defineVerb } from '../../cli/verb.js';
import { dateColumn, type Column } from '../../cli/render/columns.js';
import { listResult } from '../../cli/result.js';
import { legacySandboxStatePath, sandboxStatePath } from '../../sandbox/in-process.js';
import type {
  DncItemRecord,
  DncListRecord,
  DomainRecord,
  FieldRecord,
  ProspectRecord,
  ScheduleRecord,
  SequenceRecord,
  TaskRecord,
  WebhookRecord,
} from '../../sandbox/model.js';
import { openSandboxDb, stateExists } from '../../sandbox/open-state.js';
import { dncItemsTable, dncListsTable } from '../../sandbox/resources/dnc/tables.js';
import { domainsTable, statusNow } from '../../sandbox/resources/domains/index.js';
import { fieldsTable } from '../../sandbox/resources/fields/index.js';
import { prospectsTable } from '../../sandbox/resources/prospects/tables.js';
import { schedulesTable } from '../../sandbox/resources/schedules/index.js';
import { sequencesTable } from '../../sandbox/resources/sequences/table.js';
import { tasksTable } from '../../sandbox/resources/tasks/tables.js';
import { taskStatus } from '../../sandbox/resources/tasks/view.js';
import { webhooksTable } from '../../sandbox/resources/webhooks/table.js';
import { Sandbox } from '../../sandbox/server.js';
import type { Store } from '../../sandbox/store.js';

/** What one kind of record looks like on the way out: its rows, the columns of a table or CSV, the JSON of a row. */
interface Kind<T> {
  rows(store: Store): Iterable<T>;
  columns(store: Store): Column<T>[];
  raw(row: T, store: Store): unknown;
}

const kind = <T>(spec: Kind<T>) => spec as unknown as Kind<unknown>;

const kinds = {
  prospects: kind({
    rows: (store) => store.table(prospectsTable).iterate(),
    // One column a field, by its label, after the prospect's own.
    columns: (store) => [
      { header: 'ID', value: (p) => p.id },
      { header: 'EMAIL', value: (p) => p.email, key: true },
      { header: 'STATUS', value: (p) => p.status },
      { header: 'TAGS', value: (p) => p.tags.join(';') },
      ...store
        .table(fieldsTable)
        .all()
        .filter((f) => f.label.toLowerCase() !== 'email') // the prospect's own EMAIL column
        .map((f) => ({
          header: f.label,
          value: (p: { values: Record<string, string> }) => p.values[f.id] ?? '',
        })),
    ],
    raw: (p, store) => ({
      ...p,
      values: Object.fromEntries(Object.entries(p.values).map(([id, value]) => [labelOf(store, id), value])),
    }),
  } satisfies Kind<ProspectRecord>),
  dnc: kind({
    rows: function* (store) {
      const lists = new Map(
        store
          .table(dncListsTable)
          .all()
          .map((list) => [list.id, list]),
      );
      for (const item of store.table(dncItemsTable).iterate()) yield { list: lists.get(item.listId)!, item };
    },
    columns: () => [
      { header: 'LIST', value: (r) => r.list.id },
      { header: 'VALUE', value: (r) => r.item.value, key: true },
      { header: 'TYPE', value: (r) => r.item.type },
      dateColumn('CREATED', (r) => r.item.createdAt),
      { header: 'ADDED BY', value: (r) => r.item.addedBy },
    ],
    raw: ({ list, item: { listId: _, ...item } }) => ({ listId: list.id, listName: list.name, ...item }),
  } satisfies Kind<{ list: DncListRecord; item: DncItemRecord }>),
  tasks: kind({
    rows: (store) => store.table(tasksTable).iterate(),
    columns: (store) => [
      { header: 'ID', value: (t) => t.taskId },
      { header: 'TYPE', value: (t) => t.type },
      { header: 'STATUS', value: (t) => status(store, t) },
      dateColumn('DUE', (t) => t.dueDate),
      { header: 'TITLE', value: (t) => t.title, key: true },
    ],
    raw: (t, store) => ({ ...t, status: status(store, t) }),
  } satisfies Kind<TaskRecord>),
  webhooks: kind({
    rows: (store) => store.table(webhooksTable).all(),
    columns: () => [
      { header: 'ID', value: (w) => w.id },
      { header: 'NAME', value: (w) => w.name, key: true },
      { header: 'STATUS', value: (w) => w.status },
      { header: 'URL', value: (w) => w.webhookUrl },
      { header: 'EVENTS', value: (w) => w.webhookEvent.join(',') },
    ],
    // Header values are secrets a receiver checks: shown as ***, as `webhooks get` does.
    raw: (w) => ({ ...w, headers: Object.fromEntries(Object.keys(w.headers).map((name) => [name, '***'])) }),
  } satisfies Kind<WebhookRecord>),
  domains: kind({
    rows: (store) => store.table(domainsTable).all(),
    columns: (store) => [
      { header: 'ID', value: (d) => d.id },
      { header: 'DOMAIN', value: (d) => d.name, key: true },
      { header: 'STATUS', value: (d) => domainStatus(store, d) },
      {
        header: 'MAILBOXES',
        value: (d) => d.mailboxes.map((m) => m.email).join(', '),
        lines: (d) => d.mailboxes.map((m) => m.email),
      },
    ],
    raw: ({ activatesAt: _, ...d }, store) => ({ ...d, status: domainStatus(store, d) }),
  } satisfies Kind<DomainRecord>),
  fields: kind({
    rows: (store) => store.table(fieldsTable).all(),
    columns: () => [
      { header: 'ID', value: (f) => f.id },
      { header: 'LABEL', value: (f) => f.label, key: true },
      { header: 'TYPE', value: (f) => f.fieldType },
      { header: 'SYSTEM', value: (f) => f.isSystem },
    ],
    raw: (f) => f,
  } satisfies Kind<FieldRecord>),
  sequences: kind({
    rows: (store) => store.table(sequencesTable).all(),
    columns: () => [
      { header: 'ID', value: (s) => s.id },
      { header: 'NAME', value: (s) => s.name, key: true },
      { header: 'ACTIVE', value: (s) => s.active },
      { header: 'STEPS', value: (s) => s.steps.length },
    ],
    raw: (s) => s,
  } satisfies Kind<SequenceRecord>),
  schedules: kind({
    rows: (store) => store.table(schedulesTable).all(),
    columns: () => [
      { header: 'ID', value: (s) => s.id },
      { header: 'NAME', value: (s) => s.name, key: true },
      { header: 'TIMEZONE', value: (s) => s.timezone },
      { header: 'DEFAULT', value: (s) => s.isDefault },
    ],
    raw: (s) => s,
  } satisfies Kind<ScheduleRecord>),
};

const status = (store: Store, task: TaskRecord) => taskStatus(task, store.now());
const labels = new WeakMap<Store, Map<string, string>>();
/** A field's label by its id (the map made once a store). */
const labelOf = (store: Store, id: string) => {
  let map = labels.get(store);
  if (!map)
    labels.set(
      store,
      (map = new Map(
        store
          .table(fieldsTable)
          .all()
          .map((f) => [f.id, f.label]),
      )),
    );
  return map.get(id) ?? id;
};
/** As `domains list` shows it now (a purchase whose provisioning time has passed is active, or failed). */
const domainStatus = (store: Store, d: DomainRecord) => statusNow(d, store.now());

export default defineVerb({
  agent: { kind: 'read', local: true },
  args: [arg.text('kind', { choices: Object.keys(kinds) })],
  description:
    'Streams the records a sandbox state holds, as the sandbox keeps them: prospects with their field values by\n' +
    'label, DNC items with their list, tasks with the status they show now, webhooks (header values as ***),\n' +
    'domains, fields, sequences, schedules. A table on a terminal; TSV when piped; --ndjson, --json or --csv as\n' +
    'asked. It reads the --sandbox state (or --state FILE) and changes no record (a state of an older version is\n' +
    'moved over first, as any command would); a state never used yet is the seed.',
  examples: [
    'sandbox export prospects --csv > sandbox-prospects.csv',
    'sandbox export dnc --state ./sandbox.db --json',
  ],
  flags: { state: flag.text('read this state file instead of the one --sandbox uses', { value: 'file' }) },
  async run(ctx, opts) {
    const path = opts.state ? resolve(ctx.cwd, opts.state) : sandboxStatePath(ctx.configDir);
    // A sandbox that never listens: its store is the state on disk, or (none yet) the seed it would start from.
    const legacy = opts.state ? undefined : legacySandboxStatePath(ctx.configDir);
    const db = openSandboxDb(stateExists(path, legacy) ? path : undefined, legacy);
    ctx.onDispose(() => db.close());
    const { store } = new Sandbox({ key: 'export-only', clock: ctx.clock, db });
    const spec = kinds[opts.args[0] as keyof typeof kinds];
    return listResult(spec.rows(store), spec.columns(store), {
      raw: (row) => spec.raw(row, store),
      emptyMessage: `no ${opts.args[0]} in ${path}`,
    });
  },
});
