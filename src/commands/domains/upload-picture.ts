import { arg } from '../../cli/flags.js';
import { defineVerb } from '../../cli/verb.js';
import { valueResult } from '../../cli/result.js';
import { domainsEndpoints } from '../../api/contract/domains.js';
import { uploadFile } from '../../api/resources/uploads.js';
import { checkedPicture } from './picture.js';

export default defineVerb({
  agent: { kind: 'write', idempotent: false },
  args: [arg.text('file')],
  description:
    'A PNG, JPG or GIF of at most 1 MB, told by its content, not its name; checked before anything is sent (exit 2).\n' +
    "Prints the picture id: give it as a mailbox's profilePicId when you buy domains. --json prints {file, id}.",
  examples: ['domains upload-picture alice.png', 'domains upload-picture team.jpg --json'],
  async run(ctx, opts) {
    const [file] = opts.args;
    const path = checkedPicture(ctx, file);
    const http = await ctx.http();
    const { id } = await uploadFile(http, domainsEndpoints.uploadPicture, path);
    // profilePicId is a number; an id that is not one is printed as it came, never as null.
    return valueResult({ file, id: /^\d+$/.test(id) ? Number(id) : id }, `${id}\n`, {
      said: `Uploaded ${file}: picture id ${id}. Use it as "profilePicId": ${id} for a mailbox in a domain purchase.`,
    });
  },
});
