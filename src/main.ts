// The only entry point that touches process.*: argv, env, signals and the exit code.
// `--version` answers before anything else loads, so it costs little more than starting node: the build writes the
// version in (scripts/build.mjs), so not even package.json is read.
declare const OUTREACH_VERSION: string;

const argv = process.argv.slice(2);

if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${OUTREACH_VERSION}\n`);
} else {
  const { createProcessContext, runCli, groups } = await import('./commands/entry.js');
  const ctx = createProcessContext();
  const exitCode = await runCli(ctx, argv, groups);
  // A broken stdout has set its code already (context.ts: 141, or 1): what the command returned must not hide it.
  if (!process.exitCode) process.exitCode = exitCode;
  ctx.dispose();
}
