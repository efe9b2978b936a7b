// Shell completion in a real bash: the script `outreach completion bash` prints is sourced, then bash's completion
// function is called the way bash calls it on TAB.
import { group as tasksGroup } from '../../src/commands/tasks/index.js';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { binPath } from '../helpers/spawn.js';

function completeInBash(line: string[]): string[] {
  const words = line.map((w) => `'${w}'`).join(' ');
  const script = [
    // `outreach` as the user's shell finds it: the built CLI.
    `outreach() { ${JSON.stringify(process.execPath)} ${JSON.stringify(binPath)} "$@"; }`,
    'source <(outreach completion bash)',
    `COMP_WORDS=(${words}); COMP_CWORD=${line.length - 1}`,
    '_outreach_complete',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  const result = spawnSync('bash', ['--norc', '--noprofile', '-c', script], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME, CI: 'true' },
  });
  expect(result.stderr).toBe('');
  return result.stdout.split('\n').filter(Boolean);
}

describe('outreach completion bash', () => {
  it('completes groups from their first letters', () => {
    expect(completeInBash(['outreach', 'ta'])).toEqual(['tasks']);
  });

  it('completes verbs, flags and the fixed values of a flag', () => {
    // Every verb the tasks group declares, in its order (a new verb needs no edit here).
    expect(completeInBash(['outreach', 'tasks', ''])).toEqual(tasksGroup.verbs!.map((verb) => verb.name));
    expect(completeInBash(['outreach', 'tasks', ''])).toEqual(expect.arrayContaining(['list', 'snooze', 'bulk-skip']));
    expect(completeInBash(['outreach', 'tasks', 'list', '--sta'])).toEqual(['--status']);
    expect(completeInBash(['outreach', 'tasks', 'list', '--status', ''])).toEqual([
      'upcoming',
      'dueToday',
      'completed',
      'skipped',
      'overdue',
    ]);
    expect(completeInBash(['outreach', 'completion', ''])).toEqual(['bash', 'zsh', 'fish']);
  });

  it('offers nothing for a value it cannot know, so bash falls back to file names', () => {
    expect(completeInBash(['outreach', 'prospects', 'import', 'lea'])).toEqual([]);
  });
});
