// End-to-end helpers: spawn bin/outreach as a user would, and a standalone `outreach sandbox start`.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';
import { tempDir } from './context.js';

export const binPath = fileURLToPath(new URL('../../bin/outreach.js', import.meta.url));

export interface SpawnResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Environment without anything that could reach a real account or the developer's config. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', 'LANG', 'TMPDIR', 'SYSTEMROOT'])
    if (process.env[name]) env[name] = process.env[name]!;
  return { ...env, CI: 'true', ...extra };
}

export async function runBin(
  argv: string[],
  options: { env: Record<string, string>; input?: string; cwd?: string; closeStdout?: boolean },
): Promise<SpawnResult> {
  const child = spawn(process.execPath, [binPath, ...argv], {
    env: options.env,
    // Never the repository: a command that writes a journal or report beside its input must not write into it.
    cwd: options.cwd ?? tempDir(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  // The reader of a pipe that went away before the first write, as `| head` does after its lines.
  if (options.closeStdout) child.stdout.destroy();
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  child.stdin.end(options.input ?? '');
  const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
  return { code, signal, stdout, stderr };
}

export interface SandboxProcess {
  child: ChildProcess;
  baseUrl: string;
  key: string;
  /** What it has printed on stdout so far. */
  stdout(): string;
  stop(): Promise<SpawnResult>;
}

export async function startSandboxProcess(args: string[], env: Record<string, string>): Promise<SandboxProcess> {
  const child = spawn(process.execPath, [binPath, 'sandbox', 'start', '--port', '0', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const ready = new Promise<{ baseUrl: string; key: string }>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      stdout += d;
      const url = /^base URL: (\S+)$/m.exec(stdout)?.[1];
      const key = /^API key: (\S+)$/m.exec(stdout)?.[1];
      if (url && key) resolve({ baseUrl: url, key });
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}: ${stderr}`)));
  });
  const { baseUrl, key } = await ready;
  return {
    child,
    baseUrl,
    key,
    stdout: () => stdout,
    async stop() {
      const closed = once(child, 'close');
      child.kill('SIGINT');
      const [code, signal] = (await closed) as [number | null, NodeJS.Signals | null];
      return { code, signal, stdout, stderr };
    },
  };
}

/**
 * Runs bin/outreach in a pseudo-terminal of the given width (util-linux `script`), as a person at a terminal would:
 * stdout and stderr are both the terminal, so the result's output holds both, with the terminal's \r\n line ends.
 */
export async function runInTerminal(
  argv: string[],
  options: { env: Record<string, string>; columns: number; cwd?: string; onOutput?: (soFar: string) => void },
): Promise<{ code: number | null; output: string }> {
  const quote = (word: string) => `'${word.replace(/'/g, "'\\''")}'`;
  const command = `stty cols ${options.columns} rows 50; exec ${[process.execPath, binPath, ...argv].map(quote).join(' ')}`;
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    env: options.env,
    cwd: options.cwd ?? tempDir(),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (d) => {
    output += d;
    options.onOutput?.(output);
  });
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, output: output.replace(/\r\n/g, '\n') };
}
