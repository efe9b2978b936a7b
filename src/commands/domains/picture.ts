// A mailbox picture, checked before anything is sent: a PNG, JPG or GIF by its content, at most 1 MB.
import { resolve } from 'node:path';
import type { CommandContext } from '../../cli/command-context.js';
import { InputFileError } from '../../errors.js';
import { maxPictureBytes } from '../../api/contract/domains.js';
import { checkUpload } from '../../io/input-file.js';
import { imageType } from '../../io/file-kind.js';

/** The picture's full path, once it passed the checks (exit 2 otherwise). */
export function checkedPicture(ctx: CommandContext, file: string): string {
  const path = resolve(ctx.cwd, file);
  const { head } = checkUpload(path, file, maxPictureBytes);
  if (!imageType(head)) throw new InputFileError(file, 'is not a PNG, JPG or GIF image (judged by its content)');
  return path;
}
