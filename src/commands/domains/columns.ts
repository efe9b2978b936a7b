import type { Column } from '../../cli/render/columns.js';
import type { Domain } from '../../api/contract/domains.js';

export const domainColumns: Column<Domain>[] = [
  { header: 'ID', value: (d) => d.id },
  { header: 'DOMAIN', value: (d) => d.name ?? '', key: true },
  { header: 'STATUS', value: (d) => d.status },
  { header: 'MAILBOXES', value: (d) => mailboxes(d).join(', '), lines: mailboxes },
];

function mailboxes(domain: Domain): string[] {
  return (domain.mailboxes ?? []).map((m) => m.email ?? '');
}
