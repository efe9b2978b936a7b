// How a webhook is shown: its headers' values masked unless asked for (they often carry a shared secret).
import type { Column } from '../../cli/render/columns.js';
import type { Webhook } from '../../api/resources/webhooks.js';

export function maskedHeaders(headers: Record<string, string> | undefined, show: boolean): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name, show ? value : '***']));
}

function failure(webhook: Webhook): string {
  const last = webhook.lastFailure;
  if (!last) return '';
  const at = last.failedAt === undefined ? '' : new Date(last.failedAt).toLocaleString('en-GB', { hour12: false });
  return [at, last.statusCode ? `HTTP ${last.statusCode}` : 'no answer', last.message].filter(Boolean).join(', ');
}

export function webhookFields(showSecrets: boolean): Column<Webhook>[] {
  return [
    { header: 'ID', value: (w) => w.id },
    { header: 'NAME', value: (w) => w.name, key: true },
    { header: 'URL', value: (w) => w.webhookUrl },
    { header: 'EVENTS', value: (w) => (w.webhookEvent ?? []).join(', ') },
    { header: 'STATUS', value: (w) => w.status },
    { header: 'FAILED', value: (w) => w.failed ?? false },
    { header: 'LAST FAILURE', value: failure },
    {
      header: 'HEADERS',
      value: (w) =>
        Object.entries(maskedHeaders(w.headers, showSecrets))
          .map(([name, value]) => `${name}: ${value}`)
          .join(', '),
    },
  ];
}

/** The record for --json, headers masked unless --show-secrets. */
export function webhookJson(webhook: Webhook, showSecrets: boolean): Webhook {
  return { ...webhook, headers: maskedHeaders(webhook.headers, showSecrets) };
}
