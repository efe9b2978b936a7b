// Other tools' suppression and unsubscribe exports, as `dnc sync` reads them: which tool wrote a file (by its header),
// which column holds the value, and whether a row is an opt-out in that tool. A row that is not (a Mailchimp member
// still subscribed, an Apollo contact at stage "Cold") is left out of the sync, with why.

import { visible } from '../visible-text.js';
import { columnKey, valueColumn } from './dnc-column.js';
import { recogniseExport } from './import/header-synonyms.js';
import { isLinkedInProfile } from './dnc-values.js';

export const dncSources = ['hubspot', 'mailchimp', 'lemlist', 'instantly', 'smartlead', 'apollo', 'plain'] as const;
export type DncSourceName = (typeof dncSources)[number];

/** A row's verdict: its value (an opt-out), or why it is left out. */
export type SourceRow = { value: string } | { leftOut: string };

export interface DncSource {
  name: DncSourceName;
  /** How messages name it: "a Mailchimp unsubscribed export". */
  title: string;
  /** A row's verdict, from its cells. */
  read(fields: string[]): SourceRow;
  /** A plain column read by a flag or status column beside it ("Email Opt Out", "Status"): not every row counts. */
  byMarks?: true;
}

const truthy = (text: string | undefined) => /^(true|yes|1|y)$/i.test((text ?? '').trim());
/** A cell that says something happened: TRUE, or a reason or a date (anything but empty, false, no, 0). */
const happened = (text: string | undefined) => !/^(|false|no|0|n|off|none|null|n\/a|-)$/i.test((text ?? '').trim());

interface Profile {
  name: DncSourceName;
  /** Whether the header (keys) is this tool's export, and which kind. */
  recognise(keys: Set<string>): string | undefined;
  /** The row's verdict, for the kind `recognise` named. */
  read(kind: string, cell: (name: string) => string | undefined, fields: string[]): SourceRow;
}

const hubspot: Profile = {
  name: 'hubspot',
  recognise: (keys) =>
    !keys.has('email')
      ? undefined
      : ['portalunsubscribe', 'portalbounce', 'portalspamreport', 'globalbounce'].some((k) => keys.has(k))
        ? 'unsubscribes and bounces export'
        : keys.has('unsubscribedfromallemail') || keys.has('optedoutofallemail')
          ? 'contacts export'
          : undefined,
  read(kind, cell, fields) {
    const value = cell('email') ?? '';
    if (kind === 'contacts export')
      return truthy(cell('unsubscribedfromallemail')) || truthy(cell('optedoutofallemail'))
        ? { value }
        : { leftOut: 'not unsubscribed from all email in HubSpot' };
    // A bounce column holds the reason (or TRUE); an unsubscribe or spam report is TRUE. Opted out of one email type
    // only (Marketing Information, a custom type), the contact may still get the others: not an opt-out.
    if (['portalbounce', 'globalbounce'].some((k) => happened(cell(k)))) return { value };
    if (['portalunsubscribe', 'portalspamreport'].some((k) => truthy(cell(k)))) return { value };
    // The export's other columns are the email types: a row that has one set opted out of that type only.
    return {
      leftOut: fields.some((text) => text !== value && happened(text))
        ? 'unsubscribed from some email types only in HubSpot'
        : 'no unsubscribe, bounce or spam report in HubSpot',
    };
  },
};

const mailchimp: Profile = {
  name: 'mailchimp',
  recognise: (keys) =>
    !keys.has('emailaddress')
      ? undefined
      : keys.has('unsubtime')
        ? 'unsubscribed export'
        : keys.has('cleantime')
          ? 'cleaned export'
          : ['memberrating', 'optintime', 'leid', 'euid', 'confirmtime'].some((k) => keys.has(k))
            ? 'audience export'
            : undefined,
  read(kind, cell) {
    const value = cell('emailaddress') ?? '';
    // The unsubscribed and cleaned exports hold opt-outs only, whatever else they hold: a "Status" there is an
    // audience's own field (a customer, a lead), not Mailchimp's. An audience export's status says who opted out.
    if (kind !== 'audience export') return { value };
    const status = (cell('status') ?? cell('memberstatus') ?? '').trim().toLowerCase();
    if (status) return ['unsubscribed', 'cleaned'].includes(status) ? { value } : { leftOut: `${status} in Mailchimp` };
    return { leftOut: 'no status, in an audience export (its subscribers)' };
  },
};

/** A phone number: what lemlist's unsubscribes also hold beside LinkedIn profiles, and no email or domain. */
const phoneNumber = /^\+?[\d\s().-]{6,}$/;

const lemlist: Profile = {
  name: 'lemlist',
  // The unsubscribes export: value (an email, a domain, a LinkedIn URL or a phone number), source (lead, user, api,
  // bounce, abuse), createdAt.
  recognise: (keys) =>
    keys.has('value') && keys.has('source') && keys.has('createdat') ? 'unsubscribes export' : undefined,
  read(_kind, cell) {
    const value = (cell('value') ?? '').trim();
    if (isLinkedInProfile(value)) return { leftOut: 'a LinkedIn profile in lemlist, not an email or a domain' };
    if (phoneNumber.test(value)) return { leftOut: 'a phone number in lemlist, not an email or a domain' };
    return { value };
  },
};

const instantly: Profile = {
  name: 'instantly',
  // The block list: bl_value (an email or a domain) and is_domain from its API; "Blocked Email" and Date from the
  // app's CSV download.
  recognise: (keys) => (keys.has('blvalue') || keys.has('blockedemail') ? 'block list' : undefined),
  read: (_kind, cell) => ({ value: cell('blvalue') ?? cell('blockedemail') ?? '' }),
};

const smartlead: Profile = {
  name: 'smartlead',
  // The global block list download: one column of emails and domains.
  recognise: (keys) => (keys.has('emailordomain') || keys.has('domainoremail') ? 'block list' : undefined),
  read: (_kind, cell) => ({ value: cell('emailordomain') ?? cell('domainoremail') ?? '' }),
};

const apollo: Profile = {
  name: 'apollo',
  recognise: (keys) => (keys.has('apollocontactid') && keys.has('email') ? 'contacts export' : undefined),
  read(_kind, cell) {
    const value = cell('email') ?? '';
    const stage = (cell('stage') ?? '').trim();
    if (/^(do not contact|unsubscribed)$/i.test(stage)) return { value };
    if (truthy(cell('emailbounced')) || truthy(cell('emailunsubscribed'))) return { value };
    if (/^bounced$/i.test((cell('emailstatus') ?? '').trim())) return { value };
    return { leftOut: `stage "${stage || 'none'}" in Apollo, not do-not-contact` };
  },
};

const profiles = [hubspot, mailchimp, lemlist, instantly, smartlead, apollo];
const titles: Record<DncSourceName, string> = {
  hubspot: 'HubSpot',
  mailchimp: 'Mailchimp',
  lemlist: 'lemlist',
  instantly: 'Instantly',
  smartlead: 'Smartlead',
  apollo: 'Apollo',
  plain: 'plain',
};

export class UnknownSource extends Error {}

/** The tool that wrote a file with this header (`from` when given), and how its rows read; `hasHeader` false when
 * the first line is a value (a plain column without a header). `column`: the column to read the value from, by name
 * (under a tool's rules on its export).
 * `fitsTool`: under `from` plain, the export the header is nonetheless (its rows then all read as opt-outs). */
export function recogniseSource(
  header: string[],
  from: DncSourceName | undefined,
  isValue: (text: string) => boolean,
  column?: string,
): { source: DncSource; hasHeader: boolean; fitsTool?: string } {
  const keys = header.map(columnKey);
  const at = column === undefined ? undefined : keys.indexOf(columnKey(column));
  if (at !== undefined && at < 0)
    throw new UnknownSource(`--column ${visible(column!)}: no such column (its columns are ${header.join(', ')})`);
  const index = new Map<string, number>();
  keys.forEach((k, i) => index.has(k) || index.set(k, i));
  const keySet = new Set(keys);
  const found = profiles.flatMap((p) => {
    const kind = p.recognise(keySet);
    return kind ? [{ profile: p, kind }] : [];
  });
  const chosen = from && from !== 'plain' ? found.find((f) => f.profile.name === from) : undefined;
  if (from && from !== 'plain' && !chosen)
    throw new UnknownSource(`the header is not ${titles[from]}'s export: its columns are ${header.join(', ')}`);
  if (!from && found.length > 1)
    throw new UnknownSource(
      `the header fits the exports of ${found.map((f) => titles[f.profile.name]).join(' and ')}; say which with --source (or --from)`,
    );
  const match = chosen ?? (from === 'plain' ? undefined : found[0]);
  if (match) {
    const { profile, kind } = match;
    // A cell by its header name, lower-cased and without spaces, _, / and -.
    const cellsOf = (fields: string[]) => (name: string) => {
      const i = index.get(name);
      return i === undefined ? undefined : (fields[i] ?? '');
    };
    const read = (fields: string[]) => profile.read(kind, cellsOf(fields), fields);
    const title = sourceTitle(profile.name, kind);
    if (at === undefined) return { hasHeader: true, source: { name: profile.name, title, read } };
    // --column on a tool's export: its rules say who opted out, the column names the value to add.
    return {
      hasHeader: true,
      source: {
        name: profile.name,
        title: `${title}, its "${visible(header[at]!).slice(0, 80)}" column`,
        read: (fields) => {
          const verdict = read(fields);
          return 'value' in verdict ? { value: fields[at] ?? '' } : verdict;
        },
      },
    };
  }
  if (at !== undefined) return { hasHeader: true, source: plainReader(header, keys, at), ...fitsToolOf(from, found) };
  const plain = plainSource(header, keys, isValue);
  // A CRM's contacts export with no column saying who opted out would make every customer an opt-out: only when
  // asked for (--source plain, --column).
  const contacts = plain.hasHeader && !from && !keys.some(isOptOutColumn) ? recogniseExport(header) : undefined;
  if (contacts)
    throw new UnknownSource(
      `it looks like ${/^[aeiou]/i.test(contacts) ? 'an' : 'a'} ${contacts} contacts export, with no column saying who ` +
        'opted out: every row would be read as ' +
        'an opt-out; give --source plain (or --column NAME) to read it so',
    );
  return { ...plain, ...fitsToolOf(from, found) };
}

/** Under --source plain, the tool's export the header is nonetheless, to be said (its rows all read as opt-outs). */
function fitsToolOf(
  from: DncSourceName | undefined,
  found: Array<{ profile: Profile; kind: string }>,
): { fitsTool?: string } {
  if (from !== 'plain' || !found.length) return {};
  return {
    fitsTool: found.length === 1 ? sourceTitle(found[0]!.profile.name, found[0]!.kind) : "more than one tool's export",
  };
}

/** "a HubSpot contacts export", "an Apollo ...". */
function sourceTitle(name: DncSourceName, kind: string): string {
  return `${/^[aeiou]/i.test(titles[name]) ? 'an' : 'a'} ${titles[name]} ${kind}`;
}

/** A plain column: the one dnc-column.ts chooses by name, else the first. No header when the first cell is a value. A
 * file of several columns is titled by the one it reads. */
function plainSource(
  header: string[],
  keys: string[],
  isValue: (text: string) => boolean,
): { source: DncSource; hasHeader: boolean } {
  const named = valueColumn(keys);
  const hasHeader = !isValue(header[0] ?? '') && named >= 0;
  const column = hasHeader ? named : 0;
  if (!hasHeader && header.length > 1 && !isValue(header[0] ?? ''))
    throw new UnknownSource(
      `no known export has these columns (${header.join(', ')}), and none is named email, domain or value`,
    );
  if (hasHeader) return { hasHeader, source: plainReader(header, keys, column) };
  return {
    hasHeader,
    source: { name: 'plain', title: 'a plain column of values', read: (fields) => ({ value: fields[0] ?? '' }) },
  };
}

/** Columns of a generic export that say whether a contact opted out: a flag set on those who did (Salesforce's
 * HasOptedOutOfEmail, "Email Opt Out", "Unsubscribed": true, 1, yes or a date), or a status naming it. */
const optOutFlags = [
  'emailoptout',
  'optout',
  'optedout',
  'optedoutofemail',
  'hasoptedoutofemail',
  'unsubscribed',
  'emailunsubscribed',
  'isunsubscribed',
  'donotemail',
  'donotcontact',
  'donotmail',
  'suppressed',
  'bounced',
  'emailbounced',
  'hardbounced',
];
const statusKeys = ['status', 'subscriptionstatus', 'subscriberstatus', 'memberstatus', 'contactstatus'];
/** A status that is an opt-out, as written with spaces, _ or - between words, and anything after it ("unsubscribed
 * (manual)"). */
const optOutStatus =
  /^(unsubscribed?|opted ?out|opt ?out|bounced?|hard ?bounced?|cleaned|blocked|suppressed|complained|complaint|spam( (report(ed)?|complaint))?|do ?not ?(contact|e?mail)|dnc)\b/i;
const statusWords = (text: string) => text.trim().replace(/[\s_-]+/g, ' ');

const isOptOutColumn = (key: string) => optOutFlags.includes(key) || statusKeys.includes(key);

/** A column of a file with a header: the values of `column`, and of those rows only the ones its opt-out flag or
 * status column marks, when it has one (every row otherwise: a list of opt-outs). */
function plainReader(header: string[], keys: string[], column: number): DncSource {
  // The name comes from the file: on one line, cut, as any cell shown.
  const name = (at: number) => `"${visible(header[at]!).slice(0, 80)}"`;
  const title = header.length > 1 ? `the ${name(column)} column` : 'a plain column of values';
  const flags = keys.flatMap((key, at) => (optOutFlags.includes(key) ? [at] : []));
  const status = keys.findIndex((key) => statusKeys.includes(key));
  if (flags.length || status >= 0) {
    const marks = [...flags.map(name), ...(status >= 0 ? [name(status)] : [])].join(' or ');
    return {
      name: 'plain',
      byMarks: true,
      title: `${title}, rows ${marks} marks as opted out`,
      // An opt-out by any of its marks: a flag set, or a status that says so.
      read: (fields) => {
        if (flags.some((at) => happened(fields[at]))) return { value: fields[column] ?? '' };
        const said = status >= 0 ? statusWords(fields[status] ?? '') : '';
        if (said && optOutStatus.test(said)) return { value: fields[column] ?? '' };
        if (said) return { leftOut: `${name(status)} "${said.toLowerCase().slice(0, 40)}", not an opt-out` };
        return { leftOut: `not marked by ${marks}` };
      },
    };
  }
  return { name: 'plain', title, read: (fields) => ({ value: fields[column] ?? '' }) };
}
