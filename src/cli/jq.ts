// --jq EXPR: the command writes its JSON into memory, then jq's own printer (jq-wasm: jq 1.8 compiled to WebAssembly,
// chosen over pure-JS ports that got @tsv, keys order, try/catch or slices wrong) writes what `| jq -r EXPR` would.
// It loads only when the flag is used, and is kept out of the bundle (it reads its .wasm beside its own file).
import { Writable } from 'node:stream';
import { OutreachError, UsageError } from '../errors.js';

type JqRun = (input: string, expr: string) => { stdout: string; stderr: string; exitCode: number };

async function loadJq(): Promise<JqRun> {
  const { loadJq } = await import('jq-wasm');
  const jq = await loadJq();
  return (input, expr) => jq.raw(input, expr, ['-r']);
}

/** jq's message without its "jq: error:" prefix and "jq: 1 compile error" footer. */
function jqMessage(stderr: string): string {
  return stderr
    .replace(/\njq: \d+ compile errors?$/, '')
    .replace(/^jq: error(?: \(at [^)]*\))?: /, '')
    .trim();
}

/** Checks the expression before the command runs, so a typo sends nothing (and changes nothing). */
export async function compileJq(expr: string): Promise<JqRun> {
  const run = await loadJq();
  const { exitCode, stderr } = run('null', expr);
  if (exitCode === 3)
    throw new UsageError(`--jq: ${jqMessage(stderr)}`, 'See https://jqlang.org/manual/ for the syntax.');
  return run;
}

/** Where the command's JSON goes while it runs: kept whole, since jq needs the whole document. */
export class JsonCapture extends Writable {
  private chunks: string[] = [];

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.chunks.push(String(chunk));
    done();
  }

  text(): string {
    return this.chunks.join('');
  }
}

/** Filters the captured JSON: what to print, and the error to end with (printed after any output, as jq does). */
export function applyJq(run: JqRun, expr: string, json: string): { output: string; error?: OutreachError } {
  if (!json.trim()) return { output: '' };
  let result: ReturnType<JqRun>;
  try {
    result = run(json, expr);
  } catch (error) {
    // jq-wasm's memory ends somewhere past 20 MB of JSON.
    throw new OutreachError(
      `--jq: the built-in jq could not filter ${Math.round(json.length / 2 ** 20)} MB of JSON (${(error as Error).message})`,
      'Pipe --json (or --ndjson) into jq instead.',
    );
  }
  const output = result.stdout ? `${result.stdout}\n` : '';
  if (result.exitCode === 0) return { output };
  if (/^jq: error/.test(result.stderr))
    return { output, error: new OutreachError(`--jq: ${jqMessage(result.stderr)}`) };
  return { output, error: new UsageError(`--jq: the command printed no JSON to filter (${jqMessage(result.stderr)})`) };
}
