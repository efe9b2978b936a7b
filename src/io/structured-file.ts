// The one reader of a JSON document given as a file or stdin (a request body, a schedule, saved filters, a mapping),
// or JSON or YAML where a command takes both (by the file's extension; on stdin, anything that does not start like
// JSON). Every failure says the same: `<where>: is not JSON: <the parser's words>`, exit 2. yaml loads only for YAML.
import { InputFileError } from '../errors.js';
import { isStdin, readInputText, type InputPlace } from './input-file.js';

/** `text` as JSON; `shown` names where it came from in the message, `hint` says what to do. */
export function parseJson(text: string, shown: string, hint?: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InputFileError(shown, `is not JSON: ${(error as Error).message}`, hint);
  }
}

/** `value` is the option's value (a path, or - for stdin); `shown` names it in messages. */
export async function readJson(value: string, place: InputPlace, shown = value, hint?: string): Promise<unknown> {
  return parseJson(await readInputText(value, place, shown), shown, hint);
}

export async function readJsonOrYaml(value: string, place: InputPlace, shown = value): Promise<unknown> {
  const text = await readInputText(value, place, shown);
  const yaml = isStdin(value) ? !/^\s*[[{]/.test(text) : /\.ya?ml$/i.test(value);
  if (!yaml) return parseJson(text, shown);
  // Bundled, the module has only a default export; run from source, named ones too.
  const module = (await import('yaml')) as {
    parse?: (text: string) => unknown;
    default?: { parse(text: string): unknown };
  };
  try {
    return (module.parse ?? module.default!.parse)(text);
  } catch (error) {
    throw new InputFileError(shown, `is not YAML: ${(error as Error).message}`);
  }
}
