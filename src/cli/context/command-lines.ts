// The command lines a command suggests (a follow-up, how to resume), written as a shell reads them back and carrying
// this run's global flags (a profile, --sandbox), so a copied line talks to the same service.
import { globalPrefix } from '../globals.js';

/** A command line as a shell reads it back: words with spaces or quotes are single-quoted. */
export function shellLine(words: string[]): string {
  return words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`)).join(' ');
}

/** `words` without each flag of `flags` and its value (the next word, or after its =). */
function withoutValued(words: string[], flags: string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (flags.includes(word)) i++;
    else if (!flags.some((flag) => word.startsWith(`${flag}=`))) kept.push(word);
  }
  return kept;
}

export interface CommandLines {
  /** `outreach <the global flags of this run> <words>`, quoted for a shell: a command to suggest. */
  commandLine(words: string[]): string;
  /** This run's own command line, every flag kept, without the words in `drop` (and the flags in `dropValued` with
   * their values: `--chunk-size 50`, `--chunk-size=50`) and with `add`: a follow-up. */
  sameCommandLine(drop: string[], add: string[], dropValued?: string[]): string;
  /** This run's own line with --resume (and without --restart): what continues its job. */
  resumeLine(): string;
}

/** `argv`: this run's command line after `outreach`. */
export function commandLines(argv: string[]): CommandLines {
  const outreach = (words: string[]) => `outreach ${shellLine(words)}`;
  return {
    commandLine: (words) => outreach([...globalPrefix(argv), ...words]),
    sameCommandLine: (drop, add, dropValued = []) =>
      outreach([...withoutValued(argv, dropValued).filter((word) => !drop.includes(word)), ...add]),
    resumeLine: () => outreach([...argv.filter((word) => word !== '--restart' && word !== '--resume'), '--resume']),
  };
}
