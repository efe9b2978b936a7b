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

/** The first tag name written twice in the list, or undefined: RFC 6376 3.2 makes such a DKIM record invalid. */
export function repeatedTag(record: string): string | undefined {
  const seen = new Set<string>();
  for (const [name] of tagPairs(record)) {
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return undefined;
}
