// The only entry point that touches process.*: argv, env, signals and the exit code.
// `--version` answers before anything else loads, so it costs little more than starting node.
import { readFileSync } from 'node:fs';

const argv = process.argv.slice(2);

if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  process.stdout.write(`${pkg.version}\n`);
} else {
  const { createProcessContext, runCli } = await import('./cli/entry.js');
  const ctx = createProcessContext();
  const exitCode = await runCli(ctx, argv);
  // A closed stdout has set 141 already (context.ts); what the command returned must not hide it.
  if (process.exitCode !== 141) process.exitCode = exitCode;
  ctx.dispose();
}
