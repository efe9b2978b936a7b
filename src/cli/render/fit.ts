// Fitting a table to the terminal: how wide each column may be, and cutting a value to a width by what it shows
// (a CJK character or an emoji takes two columns, a combining mark none; a grapheme is never split).
import stringWidth from 'string-width';

export const columnGap = 2;

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The text cut to `width` display columns, ending in an ellipsis when anything was cut. */
export function truncate(text: string, width: number): string {
  if (stringWidth(text) <= width) return text;
  let kept = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const w = stringWidth(segment);
    if (used + w > width - 1) break;
    kept += segment;
    used += w;
  }
  return `${kept.trimEnd()}…`;
}

/** The widest line of a cell. */
export function cellWidth(text: string): number {
  let widest = 0;
  for (const line of text.split('\n')) widest = Math.max(widest, stringWidth(line));
  return widest;
}

/**
 * Column widths within `total`: key columns keep their natural width; the others share what is left, the narrowest
 * first and whole while they fit a fair share, so the widest are the ones cut, none below its minimum (its header).
 * When even the minimums do not fit they are returned and the terminal wraps: dropping a column would hide data.
 */
export function fitWidths(natural: number[], minimum: number[], keys: boolean[], total: number): number[] {
  let spare = total - columnGap * (natural.length - 1);
  if (natural.reduce((a, b) => a + b, 0) <= spare) return natural;
  const widths = [...natural];
  for (let i = 0; i < natural.length; i++) if (keys[i]) spare -= natural[i]!;
  const flexible = natural.map((_, i) => i).filter((i) => !keys[i]);
  flexible.sort((a, b) => natural[a]! - natural[b]!);
  flexible.forEach((column, n) => {
    const fairShare = Math.floor(spare / (flexible.length - n));
    // Never the room the later columns need for their minimums.
    const later = flexible.slice(n + 1).reduce((sum, i) => sum + minimum[i]!, 0);
    widths[column] = Math.max(minimum[column]!, Math.min(natural[column]!, fairShare, spare - later));
    spare -= widths[column]!;
  });
  return widths;
}

/** A line broken at spaces into lines of at most `width` columns, the later ones indented by two (a word longer than
 * a line is cut). */
export function wrap(line: string, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of line.split(' ')) {
    const candidate = current ? `${current} ${word}` : word;
    if (stringWidth(candidate) <= width) current = candidate;
    else {
      if (current) lines.push(current);
      current = truncate(lines.length ? `  ${word}` : word, width);
    }
  }
  lines.push(current);
  return lines;
}
