import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createVoice } from '../../../src/cli/context/voice.js';
import type { OutputSettings } from '../../../src/cli/globals.js';

function voiceWith(output: Partial<OutputSettings>, debugOn = false) {
  const stderr = new PassThrough();
  let text = '';
  stderr.on('data', (d: Buffer) => (text += d.toString()));
  const printed: string[] = [];
  const voice = createVoice({
    stderr,
    output: { quiet: false, machine: false, ...output } as OutputSettings,
    debugOn,
    redact: (line) => line.replaceAll('sk_secret', '***'),
    progress: () => ({ print: (write) => (printed.push('past the spinner'), write()) }),
  });
  const all = (v: typeof voice) => {
    v.info('info sk_secret');
    v.warn('warn');
    v.note('note');
    v.outcome('done', false);
    v.outcome('failed', true);
    v.debug('wire');
  };
  all(voice);
  return { text: () => text, printed };
}

describe('voice: what a command says, and how loudly', () => {
  it('says everything but debug lines to a person, keys masked, notes and outcomes past the spinner', () => {
    const { text, printed } = voiceWith({});
    expect(text()).toBe('info ***\nwarning: warn\nnote\ndone\nfailed\n');
    expect(printed).toHaveLength(3);
  });

  it('keeps warnings, notes and failing outcomes under machine output (stdout is the JSON)', () => {
    expect(voiceWith({ machine: true }).text()).toBe('warning: warn\nnote\nfailed\n');
  });

  it('keeps only a failing outcome under --quiet', () => {
    expect(voiceWith({ quiet: true }).text()).toBe('failed\n');
  });

  it('adds debug lines with --debug', () => {
    expect(voiceWith({ quiet: true }, true).text()).toBe('failed\n[debug] wire\n');
  });
});
