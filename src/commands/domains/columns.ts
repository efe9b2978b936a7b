import type { Column } from '../../cli/render/columns.js';
import type { Domain } from '../../api/contract/domains.js';

export const domainColumns: Column<Domain>[] = [
  { header: 'ID', value: (d) => d.id },
  { header: 'DOMAIN', value: (d) => d.name ?? '', key: true },
  { header: 'STATUS', value: (d) => d.status },
  // The one column that goes on a terminal too narrow for all four: --json or --wide show the mailboxes.
  { header: 'MAILBOXES', value: (d) => mailboxes(d).join(', '), lines: mailboxes, drop: 1 },
];

function mailboxes(domain: Domain): string[] {
  return (domain.mailboxes ?? []).map((m) => m.email ?? '');
}
