// Control characters made visible, for text bound for a terminal (cli/terminal-text.ts guards every write; the
// prompter shows questions through inquirer, past that guard, and uses this itself).

/**
 * A control character as a JSON string writes it: \b \t \n \f \r, otherwise \u001b (ESC), \u0007 (BEL), \u007f
 * (DEL), \u009b (C1 CSI). One form everywhere, and `--json` on a terminal stays valid JSON with the same data.
 */
function shown(char: string): string {
  const short = shortForms[char];
  if (short) return short;
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
const shortForms: Record<string, string> = { '\b': '\\b', '\t': '\\t', '\n': '\\n', '\f': '\\f', '\r': '\\r' };

/** C0 but tab and newline, DEL and C1: what a terminal may act on; and the bidirectional embeddings, overrides and
 * isolates, with which a value can show its text reversed or move what follows it ("Trojan Source"). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is looked for
const controlsButLines = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
/** Also tab and newline: for a value that must stay on one line and in its column (a table cell, a field). */
// eslint-disable-next-line no-control-regex -- as above
const allControls = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * The text with its control characters made visible (see `shown`). `lines: true` keeps tab and newline, for text
 * that may span lines (a message); a table cell or a listed value keeps neither, so it cannot forge rows or columns.
 */
export function visible(text: string, options: { lines?: boolean } = {}): string {
  return text.replace(options.lines ? controlsButLines : allControls, shown);
}

/** Characters a reader cannot see or tell from a space: controls, format characters (zero-width, bidirectional
 * marks) and every space but the ASCII one. */
const unseen = /[\p{Cc}\p{Cf}\p{Z}]/gu;

/** The text with every character a reader cannot see written as \u escape (a zero-width space is \u200b, a
 * non-breaking space \u00a0): for a message that says a value holds a character it should not. */
export function unseenShown(text: string): string {
  return text.replace(unseen, (char) => {
    if (char === ' ') return char;
    const hex = char.codePointAt(0)!.toString(16);
    return hex.length > 4 ? `\\u{${hex}}` : `\\u${hex.padStart(4, '0')}`;
  });
}
