// Flags of every command that reads a CSV of the user's: one name and one meaning (the vocabulary of docs/architecture.md).
import { flag } from '../cli/flags.js';
import { csvEncodings } from '../io/csv-sniff.js';

export const encodingFlag = flag.choice(csvEncodings, 'input encoding (default: UTF-8, or UTF-16 by BOM)', {
  value: 'name',
});
