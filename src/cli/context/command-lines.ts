// The command lines a command suggests (a follow-up, how to resume), written as a shell reads them back and carrying
// this run's global flags (a profile, --sandbox), so a copied line talks to the same service.
import { globalPrefix } from '../globals.js';

/** A command line as a shell reads it back: words with spaces or quotes are single-quoted. */
export function shellLine(words: string[]): string {
  return words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`)).join(' ');
}

export interface CommandLines {
  /** `outreach <the global flags of this run> <words>`, quoted for a shell: a command to suggest. */
  commandLine(words: string[]): string;
  /** This run's own command line, every flag kept, without the words in `drop` and with `add`: a follow-up. */
  sameCommandLine(drop: string[], add: string[]): string;
  /** This run's own line with --resume (and without --restart): what continues its job. */
  resumeLine(): string;
}

/** `argv`: this run's command line after `outreach`. */
export function commandLines(argv: string[]): CommandLines {
  const outreach = (words: string[]) => `outreach ${shellLine(words)}`;
  return {
    commandLine: (words) => outreach([...globalPrefix(argv), ...words]),
    sameCommandLine: (drop, add) => outreach([...argv.filter((word) => !drop.includes(word)), ...add]),
    resumeLine: () => outreach([...argv.filter((word) => word !== '--restart' && word !== '--resume'), '--resume']),
  };
}
