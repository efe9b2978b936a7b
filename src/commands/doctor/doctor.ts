import { defineVerb } from '../../cli/verb.js';
import { jsonResult, textResult } from '../../cli/result.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { configCheck, nodeCheck, sandboxStateCheck, serviceChecks, settingsChecks, type Check } from './checks.js';

export default defineVerb({
  agent: { kind: 'read' },
  description:
    'Prints a checklist, with a fix under each problem: the Node.js version, the config file and its permissions, ' +
    'the profile, base URL and key in use and where each was set (flag, environment, profile), whether the service ' +
    "answers and how fast, whether it accepts the key, how far this clock is from the service's (its Date header), " +
    'and the size of the --sandbox state. Exit 0 when every check passes, 1 when any fails.',
  examples: ['doctor --json', '--sandbox doctor', '-p staging doctor'],
  async run(ctx) {
    const checks: Check[] = [nodeCheck()];
    const { check, config } = configCheck(ctx);
    checks.push(check);
    const settings = settingsChecks(ctx, config);
    checks.push(...settings.checks);
    if (settings.target || ctx.flags.sandbox) checks.push(...(await serviceChecks(ctx)));
    checks.push(sandboxStateCheck(ctx.configDir));
    const failed = checks.filter((c) => !c.ok).length;
    const exitCode = failed ? ExitCode.failure : ExitCode.ok;
    const failure = failed
      ? { failing: `${failed} check(s) failed`, hint: 'Each failed check above says what to do.' }
      : {};
    return ctx.output.format === 'json' || ctx.output.format === 'ndjson'
      ? jsonResult({ ok: !failed, checks }, exitCode, failure)
      : textResult(checklist(checks, failed), exitCode, failure);
  },
});

function checklist(checks: Check[], failed: number): string {
  const width = Math.max(...checks.map((c) => c.name.length));
  const lines = checks.flatMap((c) => [
    `${c.ok ? '✓' : '✗'} ${c.name.padEnd(width)}  ${c.detail}`,
    ...(c.fix ? [`  ${' '.repeat(width)}  fix: ${c.fix}`] : []),
  ]);
  const verdict = failed ? `${failed} of ${checks.length} checks failed.` : `All ${checks.length} checks passed.`;
  return `${lines.join('\n')}\n${verdict}\n`;
}
