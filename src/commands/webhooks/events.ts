// Event kinds as users write them: exact kinds from spec.md's table, or groups with a star (`task-*`, `*-updated`).
import { ValueProblem } from '../../cli/flags.js';
import { webhookEvents } from '../../api/contract/webhooks.js';
import { closest } from '../../io/import/closest.js';

/** The groups of spec.md's "Events" table: `task-*` means every task event, bulk-task-updated included. */
const groups: Record<string, readonly string[]> = {
  email: ['email-sent', 'email-opened', 'email-link-clicked', 'reply-received', 'email-bounced'],
  prospect: ['prospect-unsubscribed', 'prospect-finished', 'prospect-outcome-updated'],
  sequence: ['sequence-paused', 'email-account-disconnected', 'email-account-paused', 'inbox-analyser-test-completed'],
  task: webhookEvents.filter((kind) => kind.includes('task-')),
};

/** The kinds one --event value names; an unknown one is refused with the closest kinds. */
export function eventKinds(raw: string): string[] {
  const value = raw.trim().toLowerCase();
  const group = /^(\w+)-\*$/.exec(value)?.[1];
  if (group && groups[group]) return [...groups[group]];
  if (value.includes('*')) {
    const source = value
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    const kinds = webhookEvents.filter((kind) => new RegExp(`^${source}$`).test(kind));
    if (!kinds.length) throw new ValueProblem(`"${raw}" matches no event kind`);
    return kinds;
  }
  if ((webhookEvents as readonly string[]).includes(value)) return [value];
  const near = closest(value, [...webhookEvents], (s) => s);
  throw new ValueProblem(`"${raw}" is not an event kind${near.length ? `; did you mean ${near.join(', ')}?` : ''}`);
}

/** The table of spec.md "Events", for help texts. */
export const eventsHelp = [
  'Event kinds (spec.md "Events"). A group: email-*, prospect-*, sequence-*, task-* (every kind of its line below);',
  'other stars match names: *-updated, *-paused.',
  '',
  'Email: email-sent, email-opened, email-link-clicked, reply-received, email-bounced',
  '',
  'Prospect: prospect-unsubscribed, prospect-finished, prospect-outcome-updated',
  '',
  'Sequence / accounts: sequence-paused, email-account-disconnected, email-account-paused, inbox-analyser-test-completed',
  '',
  'Tasks: task-created, task-updated, bulk-task-updated, call-task-updated, linkedin-task-updated,',
  'custom-task-updated, whatsapp-task-updated',
].join('\n');

/** `Name: value` -> [name, value]; header names are tokens (RFC 9110), values have no line breaks. */
export function readHeader(raw: string): [string, string] {
  const at = raw.indexOf(':');
  const name = at > 0 ? raw.slice(0, at).trim() : '';
  const value = at > 0 ? raw.slice(at + 1).trim() : '';
  if (!name || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
    throw new ValueProblem(`takes "Name: value" with a header name of letters, digits and -, not "${raw}"`);
  if (/[\r\n]/.test(value)) throw new ValueProblem(`"${name}" has a line break in its value`);
  return [name, value];
}

/** Headers by name; the same name twice (in any case) is a mistake: exit 2. */
export function headersFrom(pairs: Array<[string, string]>): Record<string, string> {
  const headers: Record<string, string> = {};
  const seen = new Map<string, string>();
  for (const [name, value] of pairs) {
    const key = name.toLowerCase();
    if (seen.has(key)) throw new ValueProblem(`gives "${name}" twice (header names ignore case)`);
    seen.set(key, name);
    headers[name] = value;
  }
  return headers;
}
