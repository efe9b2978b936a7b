// Fields: the system fields and the account's custom ones; only custom fields change (label, fallback text, tags).
import { fieldsEndpoints } from '../../../api/contract/fields.js';
import { defineTable } from '../../db/table.js';
import { defineResource } from '../../resource.js';
import { routesOf } from '../../route.js';
import { SandboxError } from '../../sandbox-error.js';
import { seedTable } from '../../seed-data.js';
import type { FieldRecord } from '../../model.js';
import type { Store } from '../../store.js';

export const fieldsTable = defineTable<FieldRecord>({ name: 'fields', id: (f) => f.id });

/** Field tags share one account-wide namespace: an existing tag keeps its first spelling. */
function canonicalTag(fields: FieldRecord[], tag: string): string {
  for (const field of fields) {
    const found = field.tags.find((t) => t.toLowerCase() === tag.toLowerCase());
    if (found) return found;
  }
  return tag;
}

export const allFields = (store: Store) => store.table(fieldsTable).all();

export const fieldsResource = defineResource({
  tables: [fieldsTable],
  routes: routesOf(fieldsEndpoints, {
    list: (req, store) => {
      const withSystem = req.query.systemFields === 'true';
      const fields = allFields(store).filter((f) => withSystem || !f.isSystem);
      return {
        status: 200,
        body: {
          message: 'Fields fetched successfully',
          payload: fields.map((f) => ({
            id: f.id,
            label: f.label,
            fieldType: f.fieldType,
            isDefault: f.isSystem,
            fallbackText: f.fallbackText ?? '',
            tags: f.tags,
          })),
        },
      };
    },
    update: (req, store) => {
      const fields = allFields(store);
      const field = fields.find((f) => f.id === req.params.fieldId);
      if (!field) throw new SandboxError(400, 1001, `Invalid field id ${req.params.fieldId}`);
      if (field.isSystem)
        throw new SandboxError(400, 4000, `${field.label} is a system field; only custom fields can be updated`);
      const body = req.body;
      if (body.label !== undefined) {
        const clash = fields.find((f) => f !== field && f.label.toLowerCase() === body.label!.toLowerCase());
        if (clash) throw new SandboxError(400, 1001, `A field named "${clash.label}" already exists`);
        field.label = body.label;
      }
      if (body.fallbackText !== undefined) field.fallbackText = body.fallbackText;
      if (body.tags !== undefined) {
        // A full replacement, matched case-insensitively: listed tags stay or are added, unlisted ones are removed.
        const next: string[] = [];
        for (const tag of body.tags) {
          if (next.some((t) => t.toLowerCase() === tag.toLowerCase())) continue;
          next.push(field.tags.find((t) => t.toLowerCase() === tag.toLowerCase()) ?? canonicalTag(fields, tag));
        }
        field.tags = next;
      }
      store.table(fieldsTable).put(field);
      return { status: 200, body: { message: 'Field updated successfully' } };
    },
  }),
  seed: seedTable(fieldsTable, 'fields'),
});
