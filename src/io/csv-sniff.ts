// What the first bytes of a CSV file say about how to read it, found without reading further (pure): the encoding (a
// BOM, the --encoding flag, or Windows-1252 when the bytes are not UTF-8), whether it is CSV at all (a workbook, an
// archive, UTF-16 without a BOM), the lines of a preamble before the header (LinkedIn's "Notes:"), and the delimiter.
import { UsageError } from '../errors.js';
import { describeNonCsv, looksLikeUtf16WithoutBom } from './file-kind.js';

export const csvEncodings = ['utf8', 'utf16le', 'utf16be', 'latin1', 'windows-1252'] as const;
export type CsvEncoding = (typeof csvEncodings)[number];

const candidates = [',', ';', '\t', '|'];

/** The delimiter seen most often outside quotes on the first line; a tie goes to the comma. */
export function sniffDelimiter(firstLine: string): string {
  const counts = new Map(candidates.map((c) => [c, 0]));
  let quoted = false;
  for (const char of firstLine) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && counts.has(char)) counts.set(char, counts.get(char)! + 1);
  }
  let best = ',';
  for (const c of candidates) if (counts.get(c)! > counts.get(best)!) best = c;
  return best;
}

export interface SniffedEncoding {
  encoding: CsvEncoding;
  /** Bytes of the byte-order mark to drop: only when the file is read in the encoding its BOM announced. */
  bom: number;
  /** What was guessed and should be said. */
  notes: string[];
}

/** The encoding to read `head` (the first bytes of a file) in; refuses what is not CSV text. `named` puts the file's
 * name before a message. */
export function sniffEncoding(
  head: Buffer,
  forced: CsvEncoding | undefined,
  named: (text: string) => string,
): SniffedEncoding {
  const detected = detectEncoding(head);
  const notes: string[] = [];
  if (!forced && detected.bom === 0) {
    const kind = describeNonCsv(head);
    if (kind) throw new UsageError(named(`this is not a CSV file: it looks like ${kind.what}`), kind.hint);
    const utf16 = looksLikeUtf16WithoutBom(head);
    if (utf16)
      throw new UsageError(
        named(`looks like ${utf16 === 'utf16le' ? 'UTF-16LE' : 'UTF-16BE'} text without a byte-order mark`),
        `Read it with --encoding ${utf16}, or save it again as "CSV UTF-8".`,
      );
    if (!isValidUtf8(head)) {
      detected.encoding = 'windows-1252';
      notes.push(
        named('is not valid UTF-8; reading it as Windows-1252 (Excel\'s "CSV" on Windows). ') +
          'If names look wrong, give --encoding (utf8, utf16le, utf16be, latin1, windows-1252).',
      );
    }
  }
  const encoding = forced ?? detected.encoding;
  return { encoding, bom: encoding === detected.encoding ? detected.bom : 0, notes };
}

export interface SniffedLayout {
  /** Lines before the header. */
  skipLines: number;
  delimiter: string;
  /** Said when a preamble was found rather than given. */
  note?: string;
  /** The first line was Excel's "sep=X". */
  excelSep?: true;
}

/** Where the header is and what separates its columns, from the file's first text (BOM removed). */
export function sniffLayout(
  headText: string,
  options: { skipLines?: number; delimiter?: string; findPreamble: boolean },
  named: (text: string) => string,
): SniffedLayout {
  // Excel's first line "sep=;" names the delimiter of the lines after it (a CSV saved for another locale's Excel).
  const excelSep = options.skipLines === undefined ? /^"?sep=([^\r\n"])"?[ \t]*(?:\r\n|\r|\n|$)/i.exec(headText) : null;
  if (excelSep) return { skipLines: 1, delimiter: options.delimiter ?? excelSep[1]!, excelSep: true };
  const skipLines = options.skipLines ?? (options.findPreamble ? preambleLines(headText) : 0);
  const headerText = headText
    .split(/\r\n|\r|\n/)
    .slice(skipLines)
    .join('\n');
  return {
    skipLines,
    delimiter: options.delimiter ?? sniffDelimiter(firstLine(headerText)),
    ...(options.skipLines === undefined && skipLines
      ? {
          note: named(
            `skipped ${skipLines} line(s) before the header on line ${skipLines + 1}; --skip-lines N chooses`,
          ),
        }
      : {}),
  };
}

// The WHATWG Encoding Standard reads the label "latin1" (and "iso-8859-1") as windows-1252, which is what such files
// almost always are: 0x80 is €, 0x93/0x94 are smart quotes. Node's own latin1 decoder would turn those into controls.
export function iconvName(encoding: CsvEncoding): string {
  return encoding === 'latin1' || encoding === 'windows-1252' ? 'win1252' : encoding;
}

function detectEncoding(head: Buffer): { encoding: CsvEncoding; bom: number } {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf8', bom: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf16le', bom: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf16be', bom: 2 };
  return { encoding: 'utf8', bom: 0 };
}

function firstLine(text: string): string {
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) return text.slice(0, i);
  }
  return text;
}

function isValidUtf8(bytes: Buffer): boolean {
  // A multi-byte character cut by the end of the sample is not an error: leave its last bytes out.
  let end = bytes.length;
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const byte = bytes[end - back]!;
    if (byte >= 0xc0) {
      end -= back;
      break;
    }
    if (byte < 0x80) break;
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, end));
    return true;
  } catch {
    return false;
  }
}

/** How many delimiters a line holds outside quotes. */
function delimitersIn(line: string, delimiter: string): number {
  let quoted = false;
  let count = 0;
  for (const char of line) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && char === delimiter) count++;
  }
  return count;
}

/** Leading lines without a single delimiter before a line that has some (LinkedIn's "Notes:" block): a preamble. */
function preambleLines(text: string): number {
  const lines = text.split(/\r\n|\r|\n/).slice(0, 50);
  const filled = (line: string) => line.trim() !== '';
  const delimiter = sniffDelimiter(lines.find((l) => filled(l) && candidates.some((c) => l.includes(c))) ?? '');
  const header = lines.findIndex((line) => filled(line) && delimitersIn(line.trim(), delimiter) > 0);
  // Only blank lines above the header are no preamble: blank lines are skipped anyway.
  if (header <= 0 || header === lines.length - 1 || !lines.slice(0, header).some(filled)) return 0;
  return header;
}
