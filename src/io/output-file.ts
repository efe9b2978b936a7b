// Every option that writes a file takes `-` for stdout.
import { closeSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { InputFileError } from '../errors.js';
import { fileProblem } from './input-file.js';
import { writeNewFile } from './safe-file.js';

export interface OutputPlace {
  cwd: string;
  stdout: Writable;
}

/** Writes a small text (a mapping, a request body) to the file `value` names, or to stdout for `-`. */
export function writeOutput(value: string, place: OutputPlace, text: string): void {
  if (value === '-') {
    place.stdout.write(text);
    return;
  }
  try {
    // A new file renamed into place: a link at the name is replaced, not written through.
    closeSync(writeNewFile(resolve(place.cwd, value), text));
  } catch (error) {
    throw new InputFileError(value, fileProblem(error).replace('cannot read', 'cannot write'));
  }
}
