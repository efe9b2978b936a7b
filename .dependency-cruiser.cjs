// Layer rules (DESIGN.md, "Layout"): imports point down only, and nothing imports in a circle.
// cli/ and commands/ are the top; everything else is below them and must not reach up.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'A cycle makes two modules one; split out what they share.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-reaching-up',
      severity: 'error',
      comment: 'Below cli/ and commands/, code throws errors from src/errors.ts and emits events; it never renders.',
      from: { path: '^src/', pathNot: '^src/(cli|commands)/|^src/(main|entry|docs)\\.ts$' },
      to: { path: '^src/(cli|commands)/' },
    },
    {
      name: 'cli-below-commands',
      severity: 'error',
      comment:
        'The program renders and runs the verbs it is handed (src/commands/entry.ts hands them over): cli/ imports no command.',
      from: { path: '^src/cli/' },
      to: { path: '^src/commands/' },
    },
    {
      name: 'client-below-jobs',
      severity: 'error',
      comment: 'The API client sends requests; reading inputs and running jobs sit above it.',
      from: { path: '^src/api/' },
      to: { path: '^src/(io|jobs|config)/' },
    },
    {
      name: 'inputs-below-jobs',
      severity: 'error',
      comment: 'io/ reads and checks inputs; it neither sends requests nor runs jobs.',
      from: { path: '^src/io/' },
      to: { path: '^src/(api|jobs|config)/' },
    },
    {
      name: 'contract-stands-alone',
      severity: 'error',
      comment: 'The contract is shared by the client and the sandbox: it imports only zod and itself.',
      from: { path: '^src/api/contract/' },
      to: { path: '^src/', pathNot: '^src/api/contract/' },
    },
    {
      name: 'sandbox-is-a-server',
      severity: 'error',
      comment: 'The sandbox uses the contract and pure helpers, never the client or the jobs layer.',
      from: { path: '^src/sandbox/' },
      to: { path: '^src/(api/(?!contract/)|jobs/|config/)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
