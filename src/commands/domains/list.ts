import { flag, renamed } from '../../cli/flags.js';
import { defineVerb } from '../../cli/verb.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { listResult } from '../../cli/result.js';
import { domainStatuses } from '../../api/contract/domains.js';
import { domainsEndpoints, type Domain } from '../../api/contract/domains.js';
import { call } from '../../api/call.js';
import { pollUntil } from '../../jobs/poller.js';
import { domainColumns } from './columns.js';

export default defineVerb({
  agent: { kind: 'read' },
  exitCodes: [ExitCode.partial],
  description:
    'Domains a purchase created are inProgress until their mailboxes are provisioned. --wait polls until none of the\n' +
    'selection is inProgress (progress on a terminal, --wait-timeout as the deadline), prints the final table, and\n' +
    'exits 3 if any that were provisioning ended failed.',
  examples: ['domains list --status active --json', 'domains list --search brand --wait'],
  flags: {
    search: flag.text('only domains whose name contains this', { value: 'text' }),
    order: flag.order('sort by name', { default: 'asc' }),
    status: flag.choice(domainStatuses, 'only domains in this state', { value: 'status' }),
    wait: renamed(flag.bool('poll until no domain of the selection is inProgress'), 'watch'),
  },
  async run(ctx, opts) {
    const http = await ctx.http();
    const query = { search: opts.search, order: opts.order === 'desc' ? ('Desc' as const) : ('Asc' as const) };
    const select = (domains: Domain[]) => domains.filter((d) => !opts.status || d.status === opts.status);
    const listDomains = async () => (await call(http, domainsEndpoints.list, { query })).items;
    const read = async () => select(await listDomains());
    let domains = await read();
    // The ones provisioning when the watch starts: their outcome decides the exit code.
    const watched = new Set(domains.filter((d) => d.status === 'inProgress').map((d) => d.id));
    const watching = opts.wait;
    if (watching && watched.size) {
      const ids = new Set(domains.map((d) => d.id));
      const pending = (list: Domain[]) => list.filter((d) => watched.has(d.id) && d.status === 'inProgress');
      domains = await ctx.job(async (job) => {
        const all = await pollUntil(
          async () => {
            const now = await listDomains();
            const waiting = pending(now).length;
            if (waiting) job.emit({ type: 'progress', text: `domains: ${waiting} still provisioning` });
            return now;
          },
          (now) => pending(now).length === 0,
          {
            clock: job.clock,
            signal: job.signal,
            timeoutMs: job.waitTimeoutMs,
            what: 'domain provisioning',
            later: { kind: 'domains-watch' },
            initialMs: 1000,
            maxMs: 15_000,
          },
        );
        return all.filter((d) => ids.has(d.id));
      });
    }
    const failed = watching ? domains.filter((d) => watched.has(d.id) && d.status === 'failed') : [];
    return listResult(
      domains,
      domainColumns,
      { emptyMessage: 'no domains' },
      {
        failing: failed.length
          ? `${failed.length} domain(s) failed: ${failed.map((d) => d.name ?? d.id).join(', ')}`
          : undefined,
        hint: 'The service did not set them up; see why in the web app, then buy them again with `outreach domains buy`.',
        exitCode: failed.length ? ExitCode.partial : undefined,
      },
    );
  },
});
