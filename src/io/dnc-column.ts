// Which column of a CSV holds do-not-contact values, for `dnc add --file` and a plain `dnc sync`: chosen by name, in
// an order that prefers the person to their company. A contacts export (LinkedIn's, Salesforce's) has an email column
// beside a profile URL or a website, and `dnc add` reads a URL as its domain: blocking linkedin.com, or every
// contact's whole company, is not what a list of people asks for.

/** A header name as compared: lower-cased, without spaces, _, / and -. */
export const columnKey = (name: string) => name.toLowerCase().replace(/[\s_/-]+/g, '');

/** Emails by their usual names, then anything else that holds a value, by preference: domains, a generic value, a
 * website. */
const emailKeys = ['email', 'emails', 'emailaddress'];
const otherKeys = ['domain', 'domains', 'companydomain', 'value', 'item', 'website', 'url'];
/** Named as an address ("Primary Email", Google Contacts' "E-mail 1 - Value"), but not its "E-mail 1 - Type", nor a
 * flag about email ("Do Not Email", "Unsubscribed from all email"). */
const addressLike = (key: string) => /email\d*(value|address)?$/.test(key) && !/^(donot|unsubscribed|opted)/.test(key);

/** The index of the column to read, by its key (columnKey): an email column (by name, then named as an address),
 * else the first of otherKeys a column has; -1 when none is. */
export function valueColumn(keys: string[]): number {
  const firstOf = (names: string[]) => names.map((name) => keys.indexOf(name)).find((at) => at >= 0) ?? -1;
  const email = firstOf(emailKeys);
  if (email >= 0) return email;
  const address = keys.findIndex(addressLike);
  return address >= 0 ? address : firstOf(otherKeys);
}
