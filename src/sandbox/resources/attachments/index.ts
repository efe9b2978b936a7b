// Attachments (email: up to 25 MB; notes: up to 20 MB, executables refused with 4001). Bodies stream through
// readUpload before the request's transaction; ids come from the store's counter, so they are never handed out twice.
import { attachmentsEndpoints, maxAttachmentBytes, maxNoteAttachmentBytes } from '../../../api/contract/attachments.js';
import { defineResource } from '../../resource.js';
import { routesOf, type PreparedHandler } from '../../route.js';
import { SandboxError } from '../../sandbox-error.js';
import { mb, readUpload, type Upload } from '../../upload.js';

/** Programs, not documents: Windows and Linux executables. */
const isExecutable = (head: Buffer) =>
  head.subarray(0, 2).toString('latin1') === 'MZ' || head.subarray(0, 4).equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]));

/** An attachment upload: streamed, at most `max` bytes (400 / 4002), not empty, then `check` on its first bytes. */
function attachment(
  max: number,
  what: string,
  check: (head: Buffer) => void = () => undefined,
): PreparedHandler<typeof attachmentsEndpoints.upload> {
  return {
    prepare: (req) =>
      readUpload(req.incoming, max, () => new SandboxError(400, 4002, `${what} is larger than ${mb(max)}`)),
    handle: (req, store) => {
      const upload = req.prepared as Upload;
      if (upload.size === 0) throw new SandboxError(400, 4000, 'The file is empty');
      check(upload.head);
      return { status: 201, body: { message: 'Attachment uploaded', payload: { id: store.id() } } };
    },
  };
}

export const attachmentsResource = defineResource({
  routes: routesOf(attachmentsEndpoints, {
    upload: attachment(maxAttachmentBytes, 'The attachment'),
    uploadForNotes: attachment(maxNoteAttachmentBytes, 'The file', (head) => {
      if (isExecutable(head)) throw new SandboxError(400, 4001, 'This type of file cannot be attached to a note');
    }),
  }),
});
