// Uploads: mailbox profile pictures (PNG, JPEG or GIF by content, at most 1 MB; anything else 415, as the real service
// answers) and attachments (email: up to 25 MB; notes: up to 20 MB, executables refused with 4001). Bodies stream
// through readUpload before the request's transaction; ids come from the store's counter, so they are never handed out twice.
import { attachmentsEndpoints, maxAttachmentBytes, maxNoteAttachmentBytes } from '../../../api/contract/attachments.js';
import { domainsEndpoints, maxPictureBytes } from '../../../api/contract/domains.js';
import { imageType } from '../../../io/file-kind.js';
import { defineResource } from '../../resource.js';
import { route, type Route } from '../../route.js';
import { SandboxError } from '../../sandbox-error.js';
import { readUpload, type Upload } from './read-upload.js';

const mb = (bytes: number) => `${bytes / 2 ** 20} MB`;

/** Programs, not documents: Windows and Linux executables. */
const isExecutable = (head: Buffer) =>
  head.subarray(0, 2).toString('latin1') === 'MZ' || head.subarray(0, 4).equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]));

/** An attachment upload: streamed, at most `max` bytes (400 / 4002), not empty, then `check` on its first bytes. */
function attachmentRoute(
  e: typeof attachmentsEndpoints.upload,
  max: number,
  what: string,
  check: (head: Buffer) => void = () => undefined,
): Route {
  return route(
    e,
    (req, store) => {
      const upload = req.prepared as Upload;
      if (upload.size === 0) throw new SandboxError(400, 4000, 'The file is empty');
      check(upload.head);
      return { status: 201, body: { message: 'Attachment uploaded', payload: { id: store.id() } } };
    },
    (req) => readUpload(req.incoming, max, () => new SandboxError(400, 4002, `${what} is larger than ${mb(max)}`)),
  );
}

export const uploadsResource = defineResource({
  routes: [
    route(
      domainsEndpoints.uploadPicture,
      (req, store) => {
        const upload = req.prepared as Upload;
        if (!imageType(upload.head)) throw new SandboxError(415, 4150, 'The picture must be a PNG, JPG or GIF image');
        if (upload.size === 0) throw new SandboxError(400, 4000, 'The file is empty');
        return { status: 201, body: { message: 'Profile picture uploaded', payload: { id: store.nextCounter() } } };
      },
      (req) =>
        readUpload(
          req.incoming,
          maxPictureBytes,
          () => new SandboxError(415, 4150, `The picture is larger than ${mb(maxPictureBytes)}`),
        ),
    ),

    attachmentRoute(attachmentsEndpoints.upload, maxAttachmentBytes, 'The attachment'),
    attachmentRoute(attachmentsEndpoints.uploadForNotes, maxNoteAttachmentBytes, 'The file', (head) => {
      if (isExecutable(head)) throw new SandboxError(400, 4001, 'This type of file cannot be attached to a note');
    }),
  ],
});
