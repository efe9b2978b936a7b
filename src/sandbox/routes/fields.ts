import { fieldsEndpoints } from '../../api/contract/fields.js';
import { route, type Route } from '../route.js';
import { SandboxError } from '../sandbox-error.js';
import type { Store } from '../store.js';

/** Field tags share one account-wide namespace: an existing tag keeps its first spelling. */
function canonicalTag(store: Store, tag: string): string {
  for (const field of store.state.fields) {
    const found = field.tags.find((t) => t.toLowerCase() === tag.toLowerCase());
    if (found) return found;
  }
  return tag;
}

export const fieldsRoutes: Route[] = [
  route(fieldsEndpoints.list, (req, store) => {
    const withSystem = req.query.systemFields === 'true';
    const fields = store.state.fields.filter((f) => withSystem || !f.isSystem);
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
  }),
  route(fieldsEndpoints.update, (req, store) => {
    const field = store.state.fields.find((f) => f.id === req.params.fieldId);
    if (!field) throw new SandboxError(400, 1001, `Invalid field id ${req.params.fieldId}`);
    if (field.isSystem)
      throw new SandboxError(400, 4000, `${field.label} is a system field; only custom fields can be updated`);
    const body = req.body;
    if (body.label !== undefined) {
      const clash = store.state.fields.find((f) => f !== field && f.label.toLowerCase() === body.label!.toLowerCase());
      if (clash) throw new SandboxError(400, 1001, `A field named "${clash.label}" already exists`);
      field.label = body.label;
    }
    if (body.fallbackText !== undefined) field.fallbackText = body.fallbackText;
    if (body.tags !== undefined) {
      // A full replacement, matched case-insensitively: listed tags stay or are added, unlisted ones are removed.
      const next: string[] = [];
      for (const tag of body.tags) {
        if (next.some((t) => t.toLowerCase() === tag.toLowerCase())) continue;
        next.push(field.tags.find((t) => t.toLowerCase() === tag.toLowerCase()) ?? canonicalTag(store, tag));
      }
      field.tags = next;
    }
    return { status: 200, body: { message: 'Field updated successfully' } };
  }),
];
