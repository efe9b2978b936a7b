// --jq EXPR: the command writes its JSON into memory, then jq's own printer (jq-wasm: jq 1.8 compiled to WebAssembly,
// chosen over pure-JS ports that got @tsv, keys order, try/catch or slices wrong) writes what `| jq -r EXPR` would.
// It loads only when the flag is used, and is kept out of the bundle (it reads its .wasm beside its own file).
// An expression can run for ever (`last(range(1e15))`): the check before the command runs only compiles it, and the
// filter runs in a worker thread, so Ctrl-C and SIGTERM are still heard and end it.
import { Writable } from 'node:stream';
import type { JqResult } from 'jq-wasm';
import { OutreachError, UsageError } from '../errors.js';

/** A compiled expression, ready to filter a document. */
export interface JqProgram {
  expr: string;
  /** Where jq-wasm's CommonJS entry is: the worker loads it from there (it is not in the bundle). */
  entry: string;
}

/** jq's message without its "jq: error:" prefix and "jq: 1 compile error" footer. */
function jqMessage(stderr: string): string {
  return stderr
    .replace(/\njq: \d+ compile errors?$/, '')
    .replace(/^jq: error(?: \(at [^)]*\))?: /, '')
    .trim();
}

/** Checks the expression before the command runs, so a typo sends nothing (and changes nothing). jq is given no
 * input at all, so it compiles the expression and never runs it: a runaway filter cannot hang the check. */
export async function compileJq(expr: string): Promise<JqProgram> {
  const [{ createRequire }, { loadJq }] = await Promise.all([import('node:module'), import('jq-wasm')]);
  const jq = await loadJq();
  const { exitCode, stderr } = jq.raw('', expr, ['-r']);
  if (exitCode === 3)
    throw new UsageError(`--jq: ${jqMessage(stderr)}`, 'See https://jqlang.org/manual/ for the syntax.');
  return { expr, entry: createRequire(import.meta.url).resolve('jq-wasm') };
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

export interface JqOutcome {
  output: string;
  error?: OutreachError;
}

// The worker is plain CommonJS run from this string (eval), so it needs no file of its own in dist/ or src/.
const workerSource = `
const { parentPort, workerData: { entry, input, expr } } = require('node:worker_threads');
const post = (message) => parentPort.postMessage(message);
require(entry).loadJq()
  .then((jq) => {
    post({ started: true });
    post({ result: jq.raw(input, expr, ['-r']) });
  })
  .catch((error) => post({ failed: String((error && error.message) || error) }));
`;

/**
 * Filters the captured JSON in a worker thread: what to print, and the error to end with (printed after any output,
 * as jq does). When `signal` aborts (Ctrl-C, SIGTERM) the worker is terminated and its reason is thrown.
 */
export async function filterJq(
  program: JqProgram,
  json: string,
  signal: AbortSignal,
  debug: (line: string) => void = () => {},
): Promise<JqOutcome> {
  if (!json.trim()) return { output: '' };
  const { Worker } = await import('node:worker_threads');
  const worker = new Worker(workerSource, {
    eval: true,
    workerData: { entry: program.entry, input: json, expr: guarded(program.expr) },
  });
  let onAbort = () => {};
  try {
    const message = await new Promise<{ result?: JqResult; failed?: string }>((resolve, reject) => {
      onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      if (signal.aborted) onAbort(); // while the worker module loaded
      worker.on('message', (message: { started?: true; result?: JqResult; failed?: string }) => {
        if (!message.started) return resolve(message);
        debug(`--jq: filtering ${json.length} characters of JSON in a worker thread`);
      });
      worker.once('error', (error) => resolve({ failed: error.message }));
      worker.once('exit', (code) => resolve({ failed: `the jq worker stopped (exit ${code})` }));
    });
    if (message.result) return outcome(message.result);
    // jq-wasm's memory ends somewhere past 20 MB of JSON; below that a failure is the worker's own.
    if (json.length > 16 * 2 ** 20) throw tooBig(json, message.failed ?? 'no answer');
    throw new OutreachError(`--jq: the jq worker failed (${message.failed ?? 'no answer'})`);
  } finally {
    signal.removeEventListener('abort', onAbort);
    await worker.terminate();
  }
}

// jq-wasm's memory ends somewhere past 20 MB of JSON.
const tooBig = (json: string, why: string) =>
  new OutreachError(
    `--jq: the built-in jq could not filter ${Math.round(json.length / 2 ** 20)} MB of JSON (${why})`,
    'Pipe --json (or --ndjson) into jq instead.',
  );

function outcome(result: JqResult): JqOutcome {
  const output = unguarded(result.stdout);
  if (result.exitCode === 0) return { output };
  // jq could not read its input: the command printed something other than JSON (a script, a CSV).
  if (/^jq: parse error/.test(result.stderr))
    return {
      output,
      error: new UsageError('--jq: this command prints no JSON to filter', 'Leave out --jq for this command.'),
    };
  return {
    output,
    error: new OutreachError(
      `--jq: ${jqMessage(result.stderr) || 'jq stopped'}`,
      'Check the filter against what --json alone prints.',
    ),
  };
}

/** The outputs between the markers, a line each; a run cut by an error has no closing marker. */
function unguarded(stdout: string): string {
  if (!stdout.startsWith(marker)) return stdout ? `${stdout}\n` : '';
  const closed = stdout.endsWith(marker) && stdout.length > 1;
  const output = stdout.slice(2, closed ? -1 : undefined);
  return closed || !output ? output : `${output}\n`;
}
