// The tag=value lists DMARC and DKIM records are written in ("v=DMARC1; p=none"), as a map of trimmed names and values.

/** Each tag of the list as written: its trimmed name and value, in order. */
function* tagPairs(record: string): Generator<[string, string]> {
  for (const part of record.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) yield [part.slice(0, eq).trim(), part.slice(eq + 1).trim()];
  }
}

/** `caseSensitive`: DKIM's tag names are (RFC 6376 3.2: P= is not p=); DMARC's are compared in lower case. */
export function recordTags(record: string, options: { caseSensitive: boolean }): Map<string, string> {
  const found = new Map<string, string>();
  for (const [name, value] of tagPairs(record)) found.set(options.caseSensitive ? name : name.toLowerCase(), value);
  return found;
}

/** The first tag name written twice in the list (as `recordTags` compares names), or undefined: RFC 6376 3.2 makes
 * such a list invalid, a DKIM record's and a DMARC record's (RFC 7489 6.4 takes DKIM's syntax). */
export function repeatedTag(record: string, options: { caseSensitive: boolean }): string | undefined {
  const seen = new Set<string>();
  for (const [written] of tagPairs(record)) {
    const name = options.caseSensitive ? written : written.toLowerCase();
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return undefined;
}
