// What a file that is not CSV text looks like, told by its first bytes, so a user who picked the workbook instead of
// its CSV export hears that, not "5 columns match no field" followed by binary noise.

const exportHint =
  'Open it in Excel, Numbers or Google Sheets and export "CSV UTF-8 (comma delimited)", then import that file.';

const signatures: Array<{ bytes: number[]; what: string; hint: string }> = [
  { bytes: [0x50, 0x4b, 0x03, 0x04], what: 'an Excel workbook or another zip archive (.xlsx, .zip)', hint: exportHint },
  { bytes: [0xd0, 0xcf, 0x11, 0xe0], what: 'an old Excel workbook (.xls)', hint: exportHint },
  {
    bytes: [0x1f, 0x8b],
    what: 'a gzip archive (.gz)',
    hint: 'Unpack it first (gunzip, or open it in a file manager), then give the .csv inside.',
  },
  {
    bytes: [0x89, 0x50, 0x4e, 0x47],
    what: 'a PNG image',
    hint: 'Give the CSV export of your list, not a picture of it.',
  },
  { bytes: [0xff, 0xd8, 0xff], what: 'a JPEG image', hint: 'Give the CSV export of your list, not a picture of it.' },
  { bytes: [0x25, 0x50, 0x44, 0x46], what: 'a PDF document', hint: exportHint },
];

export function describeNonCsv(head: Buffer): { what: string; hint: string } | undefined {
  const known = signatures.find((s) => s.bytes.every((byte, i) => head[i] === byte));
  if (known) return { what: known.what, hint: known.hint };
  // Binary data is full of control bytes (random or compressed bytes: about one in eight); text has almost none. A stray
  // NUL in a text file is a problem of its row, which the reader rejects on its own. UTF-16 without a BOM, half NULs,
  // is told apart by looksLikeUtf16WithoutBom.
  const sample = head.subarray(0, 4096);
  const controls = sample.filter((b) => b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0c && b !== 0x0d).length;
  if (controls >= 16 && controls > sample.length / 16 && !looksLikeUtf16WithoutBom(head))
    return { what: 'a binary file, not text', hint: exportHint };
  return undefined;
}

/** UTF-16 text without a BOM: ASCII characters leave every other byte NUL. */
export function looksLikeUtf16WithoutBom(head: Buffer): 'utf16le' | 'utf16be' | undefined {
  const sample = head.subarray(0, 4096 - (Math.min(head.length, 4096) % 2));
  if (sample.length < 4) return undefined;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < sample.length; i++) {
    if (sample[i] !== 0) continue;
    if (i % 2) oddNul++;
    else evenNul++;
  }
  const pairs = sample.length / 2;
  if (oddNul > pairs * 0.6 && evenNul < pairs * 0.1) return 'utf16le';
  if (evenNul > pairs * 0.6 && oddNul < pairs * 0.1) return 'utf16be';
  return undefined;
}

/** PNG, JPEG or GIF, by the first bytes. */
export function imageType(head: Buffer): 'png' | 'jpeg' | 'gif' | undefined {
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.subarray(0, 4).toString('latin1') === 'GIF8') return 'gif';
  return undefined;
}
