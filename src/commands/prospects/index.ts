// The prospects group: its verbs, each loaded only when the command line names it.
import type { GroupSpec } from '../../cli/verb.js';

export const group: GroupSpec = {
  verbs: [
    {
      name: 'import',
      summary: 'Import a prospect CSV of any size (streamed, chunked, resumable), or - for stdin',
      example: 'prospects import leads.csv',
      load: () => import('./import.js'),
    },
    {
      name: 'import-status',
      summary: 'Show whether an asynchronous import finished, and where its failed-rows report is',
      example: 'prospects import-status aB3dE5fG',
      load: () => import('./import-status.js'),
    },
    {
      name: 'verify',
      summary: 'Show the verification status of emails (valid, pending, skip, inProgress, risky, bad)',
      example: 'prospects verify ada@analytical.io grace@cobol.dev',
      load: () => import('./verify.js'),
    },
    {
      name: 'attribute',
      summary: 'Read and write prospect attributes',
      verbs: [
        {
          name: 'get',
          summary: 'Read a long-text attribute of a prospect',
          example: 'prospects attribute get --attribute atPain005',
          load: () => import('./attribute.js').then((m) => ({ default: m.get })),
        },
        {
          name: 'set',
          summary: 'Set one or more field values of a prospect; shows the result per field',
          example: 'prospects attribute set prLinus05 --field cPainPnt="Too many tools"',
          load: () => import('./attribute.js').then((m) => ({ default: m.set })),
        },
      ],
    },
  ],
};
