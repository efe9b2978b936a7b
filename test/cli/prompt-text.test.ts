// Questions go to the terminal through inquirer, past the output guard: text from the service in them (a task id, a
// column name) is shown, never obeyed (issue 27 item 5).
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createInquirerPrompter } from '../../src/prompter.js';

describe('the prompter', () => {
  it('shows control characters in a question instead of sending them to the terminal', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let written = '';
    output.on('data', (chunk: Buffer) => (written += chunk.toString('utf8')));
    const prompter = createInquirerPrompter(() => ({ input, output }), new AbortController().signal);
    const answer = prompter.confirm({ message: 'Skip 1 task (tk\u001b]0;pwned\u0007)?', default: false });
    await once(output, 'data'); // the question is on screen: the prompt is listening
    input.write('y\r');
    expect(await answer).toBe(true);
    expect(written).toContain('tk\\u001b]0;pwned\\u0007');
    expect(written).not.toContain('\u001b]0;');
    expect(written).not.toContain('\u0007');
  });
});
