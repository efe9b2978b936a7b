// Inbox categories: a fixed list the seed lays down.
import { inboxEndpoints } from '../../../api/contract/inbox.js';
import { defineTable } from '../../db/table.js';
import { defineResource } from '../../resource.js';
import { routesOf } from '../../route.js';
import { seedTable } from '../../seed-data.js';
import type { InboxCategoryRecord } from '../../model.js';

export const inboxCategoriesTable = defineTable<InboxCategoryRecord>({ name: 'inbox_categories', id: (c) => c.key });

export const inboxResource = defineResource({
  tables: [inboxCategoriesTable],
  routes: routesOf(inboxEndpoints, {
    listCategories: (_req, store) => ({
      status: 200,
      body: { message: 'Categories fetched successfully', payload: store.table(inboxCategoriesTable).all() },
    }),
  }),
  seed: seedTable(inboxCategoriesTable, 'inbox-categories'),
});
