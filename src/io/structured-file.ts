// A request body from a file or stdin: JSON, or YAML (by the file's extension; on stdin, anything that does not start
// like JSON). yaml loads only then.
import { InputFileError } from '../errors.js';
import { isStdin, readInputText, type InputPlace } from './input-file.js';

/** `value` is the option's value (a path, or - for stdin); `shown` names it in messages. */
export async function readJsonOrYaml(value: string, place: InputPlace, shown = value): Promise<unknown> {
  const text = await readInputText(value, place, shown);
  const yaml = isStdin(value) ? !/^\s*[[{]/.test(text) : /\.ya?ml$/i.test(value);
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
