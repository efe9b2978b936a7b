import { describe, expect, it } from 'vitest';
import { commandLines, shellLine } from '../../../src/cli/context/command-lines.js';

describe('command lines to suggest', () => {
  it('quotes words a shell would split or expand', () => {
    expect(shellLine(['dnc', 'add', 'it is', "o'brien", 'a@b.example', '$HOME'])).toBe(
      `dnc add 'it is' 'o'\\''brien' a@b.example '$HOME'`,
    );
  });

  it('keeps the global flags of this run in a suggested command', () => {
    const lines = commandLines(['-p', 'work', '--sandbox', 'prospects', 'import', 'a.csv']);
    expect(lines.commandLine(['tasks', 'list'])).toBe('outreach -p work --sandbox tasks list');
  });

  it('writes a follow-up as this run with words dropped and added', () => {
    const lines = commandLines(['prospects', 'import', 'a.csv', '--no-wait']);
    expect(lines.sameCommandLine(['--no-wait'], ['--wait'])).toBe('outreach prospects import a.csv --wait');
  });

  it('resumes a job with this run line and --resume, never --restart twice', () => {
    const lines = commandLines(['--sandbox', 'dnc', 'add', 'L1', '--file', 'x y.txt', '--restart']);
    expect(lines.resumeLine()).toBe("outreach --sandbox dnc add L1 --file 'x y.txt' --resume");
  });
});
