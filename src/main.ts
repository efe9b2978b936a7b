// The only entry point that touches process.*: argv, env, signals and the exit code.
// `--version` answers before anything else loads, so it costs little more than starting node.
import { readFileSync } from 'node:fs';

const argv = process.argv.slice(2);

if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  process.stdout.write(`${pkg.version}\n`);
} else {
  // Streaming imports allocate fast and briefly; left alone, V8 grows the young generation to 16 MB semi-spaces and
  // keeps them. Not growing it cost no speed and about 14 MiB of peak memory on a million-row import (bench:import).
  const v8 = await import('node:v8');
  v8.setFlagsFromString('--semi-space-growth-factor=1');
  const { createProcessContext } = await import('./context.js');
  const { runCli } = await import('./cli/run.js');
  const ctx = createProcessContext();
  process.exitCode = await runCli(ctx, argv);
  ctx.dispose();
}
