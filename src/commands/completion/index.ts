// `outreach completion SHELL` is itself a verb.
import type { GroupSpec } from '../../cli/verb.js';

export const group: GroupSpec = {
  self: {
    name: 'completion',
    summary: 'Print the shell completion script for bash, zsh or fish',
    example: 'completion bash > ~/.local/share/bash-completion/completions/outreach',
    load: () => import('./script.js'),
  },
};
