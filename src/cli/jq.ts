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

// jq-wasm trims the whitespace around its whole output, which would eat a leading tab of @tsv or a last empty line:
// a marker line on each side keeps the real output whole. The newline before ")" ends a trailing # comment.
const marker = '\u0001';
const guarded = (expr: string) => `"\\u0001", (${expr}\n), "\\u0001"`;

/** Filters the captured JSON: what to print, and the error to end with (printed after any output, as jq does). */
export function applyJq(run: JqRun, expr: string, json: string): { output: string; error?: OutreachError } {
  if (!json.trim()) return { output: '' };
  let result: ReturnType<JqRun>;
  try {
    result = run(json, guarded(expr));
  } catch (error) {
    // jq-wasm's memory ends somewhere past 20 MB of JSON.
    throw new OutreachError(
      `--jq: the built-in jq could not filter ${Math.round(json.length / 2 ** 20)} MB of JSON (${(error as Error).message})`,
      'Pipe --json (or --ndjson) into jq instead.',
    );
  }
  const output = unguarded(result.stdout);
  if (result.exitCode === 0) return { output };
  // jq could not read its input: the command printed something other than JSON (a script, a CSV).
  if (/^jq: parse error/.test(result.stderr))
    return { output, error: new UsageError('--jq: this command prints no JSON to filter') };
  return { output, error: new OutreachError(`--jq: ${jqMessage(result.stderr) || 'jq stopped'}`) };
}

/** The outputs between the markers, a line each; a run cut by an error has no closing marker. */
function unguarded(stdout: string): string {
  if (!stdout.startsWith(marker)) return stdout ? `${stdout}\n` : '';
  const closed = stdout.endsWith(marker) && stdout.length > 1;
  const output = stdout.slice(2, closed ? -1 : undefined);
  return closed || !output ? output : `${output}\n`;
}
