import { completionScript, shells } from './shell-scripts.js';
import { arg } from '../../cli/flags.js';
import { defineVerb } from '../../cli/verb.js';
import { textResult } from '../../cli/result.js';

export default defineVerb({
  agent: { kind: 'leftOut', why: 'it prints a script for an interactive shell' },
  args: [arg.text('shell', { choices: shells })],
  description: [
    'Completes groups, verbs, flags, flag values with a fixed set (--status, --type, event kinds, ...) and profile',
    'names; anything else falls back to file names. The script asks `outreach` itself, so it never goes stale.',
    '',
    'bash: source <(outreach completion bash) in ~/.bashrc, or save it as',
    '~/.local/share/bash-completion/completions/outreach.',
    'zsh: source <(outreach completion zsh) in ~/.zshrc (after compinit).',
    'fish: outreach completion fish > ~/.config/fish/completions/outreach.fish',
  ].join('\n'),
  examples: ['completion zsh >> ~/.zshrc', 'completion fish > ~/.config/fish/completions/outreach.fish'],
  async run(_ctx, opts) {
    return textResult(completionScript(opts.args[0] as (typeof shells)[number]));
  },
});
