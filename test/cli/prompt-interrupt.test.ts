// Ctrl-C at a real (inquirer) prompt is an interruption: exit 130, not a failure.
import { PassThrough } from 'node:stream';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createInquirerPrompter } from '../../src/prompter.js';
import { exitCodeFor } from '../../src/cli/exit-codes.js';
import { Interrupted } from '../../src/errors.js';

describe('Ctrl-C at a prompt', () => {
  it('rejects with Interrupted, which exits 130', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const prompter = createInquirerPrompter(() => ({ input, output }), new AbortController().signal);
    const answer = prompter.input({ message: 'Name of the schedule' });
    await once(output, 'data'); // the question is on screen: the prompt is listening
    input.write('\x03');
    const error = await answer.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Interrupted);
    expect(exitCodeFor(error)).toBe(130);
  });

  it('rejects with Interrupted when the command is aborted while asking', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const controller = new AbortController();
    const prompter = createInquirerPrompter(() => ({ input, output }), controller.signal);
    const answer = prompter.confirm({ message: 'Send?' });
    await once(output, 'data');
    controller.abort(new Interrupted('interrupted by SIGINT'));
    expect(exitCodeFor(await answer.catch((e: unknown) => e))).toBe(130);
  });
});
