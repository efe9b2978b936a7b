// Attachments for email-step variants (spec.md "Attachments"; the response body is not shown).
import * as z from 'zod/mini';
import { id, optional, wrapped } from './schema.js';
import { endpoint } from './endpoint.js';

export const attachmentsEndpoints = {
  upload: endpoint({
    method: 'POST',
    path: '/v1/attachments',
    // Each upload stores another file.
    replaySafe: false,
    response: wrapped(z.looseObject({ id: optional(id) }), 'id'),
  }),
};
