// A request body from a file: JSON, or YAML by extension (yaml loads only then).
import { readFileSync } from 'node:fs';
import { InputFileError } from '../errors.js';
import { fileProblem } from './input-file.js';

/** `shown` is the path as the user gave it, for messages. */
export async function readJsonOrYaml(path: string, shown = path): Promise<unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new InputFileError(shown, fileProblem(error));
  }
  const yaml = /\.ya?ml$/i.test(path);
  try {
    if (!yaml) return JSON.parse(text);
    // Bundled, the module has only a default export; run from source, named ones too.
    const module = (await import('yaml')) as {
      parse?: (text: string) => unknown;
      default?: { parse(text: string): unknown };
    };
    return (module.parse ?? module.default!.parse)(text);
  } catch (error) {
    throw new InputFileError(shown, `cannot be read as ${yaml ? 'YAML' : 'JSON'}: ${(error as Error).message}`);
  }
}
