// `api -f/-F` keys build the request's parameters: none of them may reach an object's prototype (issue 27 item 11).
// `-f __proto__.saveTo=PATH` once set Object.prototype.saveTo, so the sender wrote the answer to PATH;
// `__proto__.withoutKey=1` skipped the origin check.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { run, usageHint } from '../helpers/run.js';
import { tempDir } from '../helpers/context.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { onSandboxRequest } from '../helpers/sandbox-events.js';

let sb: TestSandbox;
let requestCount = 0;
let unsubscribe = () => {};
beforeAll(async () => {
  sb = await startTestSandbox();
  unsubscribe = onSandboxRequest(() => requestCount++);
});
afterAll(async () => {
  unsubscribe();
  await sb.close();
});
afterEach(() => {
  // Whatever a test tried, the prototype every object shares is left as it was.
  expect(Object.keys(Object.prototype)).toEqual([]);
});

const requests = () => requestCount;

describe('api -f / -F keys', () => {
  for (const [flag, key] of [
    ['-f', '__proto__.saveTo'],
    ['-F', '__proto__.withoutKey'],
    ['-f', 'constructor.prototype.saveTo'],
    ['-f', 'a.prototype'],
    ['-F', 'ids.__proto__[]'],
    ['-f', '__proto__'],
  ] as const)
    it(`refuses ${flag} ${key} with exit 2, sending and writing nothing`, async () => {
      const dir = tempDir();
      const target = join(dir, 'stolen.json');
      const before = requests();
      const result = await run(['api', 'POST', '/v1/tasks/bulk-skip', flag, `${key}=${target}`], {
        env: sb.env,
        configDir: tempDir(),
      });
      const name = /(__proto__|constructor|prototype)/.exec(key)![1];
      expect(result).toMatchObject({
        code: 2,
        stdout: '',
        stderr: `error: ${flag} "${key}": "${name}" cannot be used as a key\nhint: Send such a body with --file.\n`,
      });
      expect(requests()).toBe(before);
      expect(existsSync(target)).toBe(false);
    });

  it('refuses them for query parameters too', async () => {
    const before = requests();
    const result = await run(['api', 'GET', '/v1/unibox/categories', '-f', '__proto__.withoutKey=true'], {
      env: sb.env,
      configDir: tempDir(),
    });
    expect(result.code).toBe(2);
    expect(requests()).toBe(before);
  });

  it('still nests with dots and appends with []', async () => {
    const result = await run(
      ['api', 'POST', '/v1/tasks/bulk-skip', '-f', 'taskIds[]=tk000001', '-f', 'taskIds[]=tk000002', '--json'],
      { env: sb.env, configDir: tempDir() },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const sent = sb.sandbox.requestLog.at(-1)!;
    expect(sent.path).toBe('/v1/tasks/bulk-skip');
  });

  it('refuses a key that nests under a value already given', async () => {
    const result = await run(['api', 'POST', '/v1/tasks/bulk-skip', '-f', 'a=1', '-f', 'a.b=2'], {
      env: sb.env,
      configDir: tempDir(),
    });
    expect({ code: result.code, stderr: result.stderr }).toEqual({
      code: 2,
      stderr: 'error: -f "a.b": "a" already has a value\n' + usageHint,
    });
  });
});
