// The DNC tables: the lists, and their items by list and value (one value at most once a list).
import { defineTable } from '../../db/table.js';
import type { DncItemRecord, DncListRecord } from '../../model.js';

export const dncListsTable = defineTable<DncListRecord>({
  name: 'dnc_lists',
  id: (l) => l.id,
  columns: [{ name: 'name', value: (l) => l.name }],
});

export const dncItemsTable = defineTable<DncItemRecord>({
  name: 'dnc_items',
  id: (i) => i.id,
  columns: [
    { name: 'list_id', value: (i) => i.listId },
    { name: 'value', value: (i) => i.value },
    { name: 'type', value: (i) => i.type },
    // Read page by page without parsing each record (see wholeListPage).
    { name: 'pos', type: 'INTEGER', value: (i) => i.pos ?? null },
    { name: 'created_at', value: (i) => i.createdAt },
    { name: 'added_by', value: (i) => i.addedBy },
  ],
  compoundIndexes: [{ columns: 'list_id, value', unique: true }, { columns: 'list_id, pos' }],
});
