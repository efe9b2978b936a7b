import { resolve } from 'node:path';
import { arg } from '../../cli/flags.js';
import { defineVerb } from '../../cli/verb.js';
import { writeJson, writeOut } from '../../cli/render/output.js';
import { InputFileError } from '../../errors.js';
import { domainsEndpoints } from '../../api/contract/domains.js';
import { uploadFile } from '../../api/resources/uploads.js';
import { checkUpload } from '../../io/input-file.js';
import { imageType } from '../../io/file-kind.js';

const maxPictureBytes = 2 ** 20;

export default defineVerb({
  args: [arg.text('file')],
  description:
    'A PNG, JPG or GIF of at most 1 MB, told by its content, not its name; checked before anything is sent (exit 2).\n' +
    "Prints the picture id: give it as a mailbox's profilePicId when you buy domains.",
  examples: ['domains upload-picture alice.png', 'domains upload-picture team.jpg --json'],
  async run(ctx, opts) {
    const [file] = opts.args;
    const { head } = checkUpload(resolve(ctx.cwd, file), file, maxPictureBytes);
    if (!imageType(head)) throw new InputFileError(file, 'is not a PNG, JPG or GIF image (judged by its content)');
    const http = await ctx.http();
    const { id } = await uploadFile(http, domainsEndpoints.uploadPicture, resolve(ctx.cwd, file));
    if (ctx.flags.json) await writeJson(ctx, { file, id: Number(id) });
    else await writeOut(ctx.stdout, `${id}\n`);
    ctx.info(`Uploaded ${file}: picture id ${id}. Use it as "profilePicId": ${id} for a mailbox in a domain purchase.`);
  },
});
