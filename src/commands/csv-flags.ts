// Flags of every command that reads a CSV of the user's: one name and one meaning (the vocabulary of docs/architecture.md).
import { flag } from '../cli/flags.js';
import { csvEncodings } from '../io/csv-sniff.js';

export const skipLinesFlag = flag.int(
  'lines before the header to skip (default: a preamble such as LinkedIn\'s "Notes:" is found)',
  { value: 'n', min: 0, max: 1000 },
);

export const encodingFlag = flag.choice(csvEncodings, 'input encoding (default: UTF-8, or UTF-16 by BOM)', {
  value: 'name',
});
