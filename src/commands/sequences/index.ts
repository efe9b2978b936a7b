// The sequences group: its verbs, each loaded only when the command line names it.
import type { GroupSpec } from '../../cli/verb.js';

export const group: GroupSpec = {
  verbs: [
    {
      name: 'steps',
      summary: 'Show the variants of a sequence step, with type and status codes named',
      example: 'sequences steps sqOnbrd1 stA1intro',
      load: () => import('./steps.js'),
    },
    {
      name: 'subsequence',
      summary: 'Read and change subsequences',
      verbs: [
        {
          name: 'get',
          summary: "A subsequence's settings: schedule, entry delay, conditions",
          example: 'sequences subsequence get sqOnbrd1 ssReplied',
          load: () => import('./subsequence-get.js'),
        },
        {
          name: 'update',
          summary: 'Change a subsequence: schedule, entry delay, conditions (settings left out stay as they are)',
          example: 'sequences subsequence update sqOnbrd1 ssReplied --delay-days 3',
          load: () => import('./subsequence-update.js'),
        },
      ],
    },
    {
      name: 'import',
      summary: 'Import a prospect CSV into a sequence step (the sequence-scoped import)',
      example: 'sequences import leads.csv --step stA1intro',
      load: () => import('./import.js'),
    },
    {
      name: 'add-contacts',
      summary: 'Add contacts (prospect ids) to a step of a sequence',
      example: 'sequences add-contacts sqOnbrd1 --step stA1intro prAda001 prGrace02',
      load: () => import('./add-contacts.js'),
    },
    {
      name: 'pause',
      summary: 'Pause sequences; prints how many succeeded and failed',
      example: 'sequences pause sqOnbrd1',
      load: () => import('./status.js').then((m) => ({ default: m.pause })),
    },
    {
      name: 'resume',
      summary: 'Resume sequences; prints how many succeeded and failed',
      example: 'sequences resume sqOnbrd1',
      load: () => import('./status.js').then((m) => ({ default: m.resume })),
    },
    {
      name: 'test-email',
      summary: 'Send a test email from an account connected to the sequence',
      example:
        'sequences test-email sqOnbrd1 --to me@x.example --from-account ea1Alice --subject "Hi {{First Name}}" --content-file body.html',
      load: () => import('./test-email.js'),
    },
  ],
};
