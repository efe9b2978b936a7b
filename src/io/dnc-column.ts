// Which column of a CSV holds do-not-contact values, for `dnc add --file` and a plain `dnc sync`: chosen by name, in
// an order that prefers the person to their company. A contacts export (LinkedIn's, Salesforce's) has an email column
// beside a profile URL or a website, and `dnc add` reads a URL as its domain: blocking linkedin.com, or every
// contact's whole company, is not what a list of people asks for.

/** A header name as compared: lower-cased, without spaces, _, / and -. */
export const columnKey = (name: string) => name.toLowerCase().replace(/[\s_/-]+/g, '');

/** By preference: emails, then domains, then a generic value, then a website. */
const valueColumnKeys = [
  'email',
  'emails',
  'emailaddress',
  'domain',
  'domains',
  'companydomain',
  'value',
  'item',
  'website',
  'url',
];

/** The index of the column to read, by its key (columnKey): the first of valueColumnKeys a column has, then the first
 * named as an address ("Primary Email", Google Contacts' "E-mail 1 - Value" but not its "E-mail 1 - Type"); -1 when
 * none is. */
export function valueColumn(keys: string[]): number {
  for (const name of valueColumnKeys) {
    const at = keys.indexOf(name);
    if (at >= 0) return at;
  }
  return keys.findIndex((k) => /email\d*(value|address)?$/.test(k));
}
