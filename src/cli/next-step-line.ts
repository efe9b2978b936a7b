// A next step (src/next-step.ts) as the command line that takes it, with this run's global flags.
import type { NextStep } from '../next-step.js';
import type { CommandLines } from './context/command-lines.js';

export function nextStepWords(step: NextStep): string[] {
  switch (step.kind) {
    case 'import-status':
      return ['prospects', 'import-status', step.requestId, ...(step.wait ? ['--wait'] : [])];
    case 'import-resume':
      return [step.sequenceScoped ? 'sequences' : 'prospects', 'import', step.input, '--resume', '--wait'];
    case 'bulk-resume':
      return ['tasks', step.job, '--resume', step.journal];
    case 'bulk-status':
      return ['tasks', 'bulk-status', step.bulkActionId, '--wait'];
    case 'enrichment-status':
      return ['enrich', 'status', ...step.requestIds, ...(step.wait ? ['--wait'] : [])];
    case 'domains-watch':
      return ['domains', 'list', '--wait'];
  }
}

/** The command line of a step. Going on with this run's import is this run's own line (its flags and all, which
 * --resume checks) resumed and waiting; any other step is its words with this run's global flags. */
export function nextStepLine(step: NextStep, lines: Pick<CommandLines, 'commandLine' | 'sameCommandLine'>): string {
  if (step.kind === 'import-resume')
    return lines.sameCommandLine(['--restart', '--resume', '--wait', '--no-wait'], ['--resume', '--wait']);
  return lines.commandLine(nextStepWords(step));
}
