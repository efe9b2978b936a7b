// The prospects' tables: prospects by id and by email (case-insensitive), their long-text attribute records by id and
// by prospect, and the asynchronous import jobs.
import { defineTable } from '../../db/table.js';
import type { AttributeRecord, ImportJobRecord, ProspectRecord } from '../../model.js';

export const prospectsTable = defineTable<ProspectRecord>({
  name: 'prospects',
  id: (p) => p.id,
  columns: [{ name: 'email_key', value: (p) => p.email.toLowerCase(), index: 'unique' }],
});

export const attributesTable = defineTable<AttributeRecord>({
  name: 'attributes',
  id: (a) => a.attributeId,
  columns: [
    { name: 'prospect_id', value: (a) => a.prospectId, index: true },
    { name: 'field_id', value: (a) => a.fieldRefId },
  ],
});

export const importsTable = defineTable<ImportJobRecord>({ name: 'imports', id: (j) => j.requestId });
