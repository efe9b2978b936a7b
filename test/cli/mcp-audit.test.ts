// What `outreach mcp` keeps on disk stays bounded: `mcp audit` reads only the end of a long log, and the files of
// answers too large to send keep only the latest fifty.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerOf } from '../../src/cli/mcp/answer.js';
import { tempDir } from '../helpers/context.js';
import { run } from '../helpers/run.js';

describe('outreach mcp on disk', () => {
  it('audit reads the latest entries of a log of any length', async () => {
    const configDir = tempDir();
    const entry = (i: number) =>
      JSON.stringify({
        time: '2026-11-18T12:00:00.000Z',
        tool: 'dnc_add',
        arguments: { item: [`v${i}`] },
        outcome: 'done',
        exitCode: 0,
      });
    writeFileSync(
      join(configDir, 'audit.ndjson'),
      Array.from({ length: 60_000 }, (_, i) => entry(i)).join('\n') + '\n',
      { mode: 0o600 },
    );
    const result = await run(['mcp', 'audit', '--limit', '2', '--json'], { configDir });
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as Array<{ arguments: unknown }>).map((e) => e.arguments)).toEqual([
      { item: ['v59998'] },
      { item: ['v59999'] },
    ]);
  });

  it('keeps the files of the latest fifty answers too large to send', () => {
    const configDir = tempDir();
    const big = JSON.stringify(Array.from({ length: 3000 }, (_, i) => ({ id: i, text: 'x'.repeat(30) })));
    for (let i = 0; i < 55; i++) {
      const answer = answerOf({ code: 0, stdout: big, stderr: '', cut: false }, configDir, 'tasks_list');
      expect(answer.isError ? undefined : answer.structured.truncated).toBe(true);
    }
    expect(readdirSync(join(configDir, 'mcp-results')).length).toBe(50);
  });
});
