// What a test sandbox holds, read from its tables as the old single state object looked (a fresh read each call).
import type { Sandbox } from '../../src/sandbox/server.js';
import { dncItemsTable, dncListsTable } from '../../src/sandbox/resources/dnc/tables.js';
import { domainsTable } from '../../src/sandbox/resources/domains/index.js';
import { fieldsTable } from '../../src/sandbox/resources/fields/index.js';
import { inboxCategoriesTable } from '../../src/sandbox/resources/inbox/index.js';
import { enrichmentsTable } from '../../src/sandbox/resources/people/index.js';
import { importsTable, prospectsTable } from '../../src/sandbox/resources/prospects/tables.js';
import { schedulesTable } from '../../src/sandbox/resources/schedules/index.js';
import { sequencesTable } from '../../src/sandbox/resources/sequences/table.js';
import { bulkActionsTable, tasksTable } from '../../src/sandbox/resources/tasks/tables.js';
import { webhooksTable } from '../../src/sandbox/resources/webhooks/table.js';
import type { TableSpec } from '../../src/sandbox/db/table.js';
import type { ProspectRecord } from '../../src/sandbox/model.js';

type Held = { sandbox: Sandbox };

export function state({ sandbox }: Held) {
  const { store } = sandbox;
  const all = <T>(spec: Parameters<typeof store.table<T>>[0]) => store.table(spec).all();
  const items = all(dncItemsTable);
  return {
    tasks: all(tasksTable),
    bulkActions: all(bulkActionsTable),
    imports: all(importsTable),
    dncLists: all(dncListsTable).map((list) => ({ ...list, items: items.filter((i) => i.listId === list.id) })),
    domains: all(domainsTable),
    fields: all(fieldsTable),
    schedules: all(schedulesTable),
    sequences: all(sequencesTable),
    webhooks: all(webhooksTable),
    enrichments: all(enrichmentsTable),
    inboxCategories: all(inboxCategoriesTable),
    enrichmentStarts: store.transaction(() => store.meta().enrichmentStarts),
  };
}

export const prospectByEmail = ({ sandbox }: Held, email: string): ProspectRecord | undefined =>
  sandbox.store.table(prospectsTable).first('email_key = ?', email.toLowerCase());

export const allProspects = ({ sandbox }: Held): ProspectRecord[] => sandbox.store.table(prospectsTable).all();

/** Changes a record in place, as a test's setup (the sandbox reads it on its next request). */
export function changeRecord<T>({ sandbox }: Held, spec: TableSpec<T>, id: string, change: (record: T) => void): void {
  const table = sandbox.store.table(spec);
  const record = table.get(id)!;
  change(record);
  table.put(record);
}
