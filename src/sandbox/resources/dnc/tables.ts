// The DNC tables: the lists, and their items by list and value (one value at most once a list).
import { defineTable } from '../../db/table.js';
import type { DncItemRecord, DncListRecord } from '../../model.js';

export const dncListsTable = defineTable<DncListRecord>({
  name: 'dnc_lists',
  id: (l) => l.id,
  columns: [{ name: 'name', value: (l) => l.name }],
});

/** An item as the cross-list search shows it. */
export const dncItemView = ({ id, value, type, createdAt }: DncItemRecord) => ({ id, value, type, createdAt });

/** An item as a page of its list shows it. */
export const dncListItemView = (item: DncItemRecord) => ({ ...dncItemView(item), addedBy: item.addedBy });

export const dncItemsTable = defineTable<DncItemRecord>({
  name: 'dnc_items',
  id: (i) => i.id,
  columns: [
    { name: 'list_id', value: (i) => i.listId },
    { name: 'value', value: (i) => i.value },
    { name: 'type', value: (i) => i.type },
    { name: 'pos', type: 'INTEGER', value: (i) => i.pos ?? null },
    // The item as a page of its list shows it, made when it is written: a page joins a hundred of these, which costs
    // half what building each object from its columns did (see wholeListPage).
    { name: 'view', value: (i) => JSON.stringify(dncListItemView(i)) },
  ],
  compoundIndexes: [{ columns: 'list_id, value', unique: true }, { columns: 'list_id, pos' }],
});
