import { resolve } from 'node:path';
import { arg, flag } from '../../cli/flags.js';
import { defineVerb } from '../../cli/verb.js';
import { exitCodeForItems, ExitCode } from '../../cli/exit-codes.js';
import { valueResult } from '../../cli/result.js';
import { InputFileError, isRefusal, UsageError } from '../../errors.js';
import { attachmentsEndpoints, maxAttachmentBytes, maxNoteAttachmentBytes } from '../../api/contract/attachments.js';
import { uploadFile } from '../../api/resources/uploads.js';
import { checkUpload } from '../../io/input-file.js';

export default defineVerb({
  agent: { kind: 'write', idempotent: false },
  exitCodes: [ExitCode.partial],
  args: [arg.list('file', { min: 1 })],
  description:
    'Email attachments (up to 25 MB each) for the attachmentIds of an email-step variant; --notes for note attachments\n' +
    '(up to 20 MB). Every file is checked first (missing, unreadable, empty, too large: exit 2, nothing sent); then\n' +
    'each is streamed from disk, never read whole. Prints path<TAB>id per file (--json: [{file, id}], {file, error}\n' +
    'for a file the service refused); a file the service refuses is reported and the rest go on (exit 3).',
  examples: ['attachments upload brochure.pdf pricing.xlsx', 'attachments upload call-notes.pdf --notes --json'],
  flags: { notes: flag.bool('upload attachments for notes instead of email steps') },
  async run(ctx, opts) {
    const files = [...new Set(opts.args[0])];
    const max = opts.notes ? maxNoteAttachmentBytes : maxAttachmentBytes;
    const problems: string[] = [];
    for (const file of files) {
      try {
        checkUpload(resolve(ctx.cwd, file), file, max);
      } catch (error) {
        if (!(error instanceof InputFileError)) throw error;
        problems.push(error.message);
      }
    }
    if (problems.length) throw new UsageError(problems.join('; '), 'Nothing was sent.');

    const http = await ctx.http();
    const endpoint = opts.notes ? attachmentsEndpoints.uploadForNotes : attachmentsEndpoints.upload;
    const results: Array<{ file: string; id?: string; error?: string }> = [];
    let stopped: unknown;
    for (const file of files) {
      try {
        const { id } = await uploadFile(http, endpoint, resolve(ctx.cwd, file));
        results.push({ file, id });
      } catch (error) {
        // A refusal of this file (type, size) is its own; a network, auth or rate-limit failure stops the rest
        // (the ids of the files sent before it are still printed).
        if (!isRefusal(error)) {
          stopped = error;
          break;
        }
        results.push({ file, error: error.message });
      }
    }
    const failed = results.filter((r) => r.error);
    return valueResult(results, results.map((r) => (r.id ? `${r.file}\t${r.id}\n` : '')).join(''), {
      ...(failed.length && {
        failing: `${failed.length} of ${files.length} file(s) not uploaded: ${failed.map((r) => `${r.file}: ${r.error}`).join('; ')}`,
        hint: 'Fix those files (type, size) and upload them again.',
      }),
      exitCode: exitCodeForItems(failed.length, files.length),
      error: stopped,
    });
  },
});
