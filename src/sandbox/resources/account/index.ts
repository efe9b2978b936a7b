// The account: who owns the records, the id counter, when the seed was laid down (single values, kept in `meta`).
import { defineResource } from '../../resource.js';
import { seedData } from '../../seed-data.js';
import type { AccountRecord } from '../../model.js';

export interface AccountSeed extends AccountRecord {
  /** The people tasks are assigned to. */
  assignees: Array<{ id: string; firstName: string; lastName: string; email: string }>;
}

export const accountResource = defineResource({
  seed(store) {
    const { ownerId, firstName, lastName, email } = seedData<AccountSeed>('account');
    store.setMeta({
      account: { ownerId, firstName, lastName, email },
      counter: 1000,
      seededAt: store.now(),
      enrichmentStarts: [],
    });
  },
});
