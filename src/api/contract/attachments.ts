// Attachments for email-step variants and for notes (spec.md "Attachments"; real-service-notes.md: the notes upload
// refuses files over 20 MB with 4002 and unsupported types with 4001). Response bodies are not shown.
import * as z from 'zod/mini';
import { id, optional, wrapped } from './schema.js';
import { endpoint } from './endpoint.js';

/** Email attachments: spec.md gives no limit; 25 MB is what mail providers take in one message. */
export const maxAttachmentBytes = 25 * 2 ** 20;
/** Note attachments: 20 MB (real-service-notes.md, error 4002). */
export const maxNoteAttachmentBytes = 20 * 2 ** 20;

const uploaded = wrapped(z.looseObject({ id: optional(id) }), 'id');

export const attachmentsEndpoints = {
  upload: endpoint({
    method: 'POST',
    path: '/v1/attachments',
    // Each upload stores another file.
    replaySafe: false,
    response: uploaded,
  }),
  uploadForNotes: endpoint({
    method: 'POST',
    path: '/v1/notes/attachments',
    replaySafe: false,
    response: uploaded,
  }),
};
