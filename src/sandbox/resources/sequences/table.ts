import { defineTable } from '../../db/table.js';
import type { SequenceRecord } from '../../model.js';

export const sequencesTable = defineTable<SequenceRecord>({ name: 'sequences', id: (s) => s.id });
