// What can be done next about work that goes on at the service, or about a job that stopped: data, which the CLI says
// as a command line with this run's global flags (cli/next-step-line.ts), and an agent's front end as a tool call.
export type NextStep =
  | { kind: 'import-status'; requestId: string; wait: boolean }
  | { kind: 'import-resume'; input: string; sequenceScoped: boolean }
  | { kind: 'bulk-resume'; job: 'bulk-skip' | 'bulk-snooze'; journal: string }
  | { kind: 'bulk-status'; bulkActionId: string }
  | { kind: 'enrichment-status'; requestIds: string[]; wait: boolean }
  | { kind: 'domains-watch' };
