// About how many rows a file has, from its size and the line length of its first 64 KiB: enough to size the
// duplicate index once instead of growing it (a growth briefly holds the old and the new table).
import { closeSync, openSync, readSync, statSync } from 'node:fs';

export function estimateRows(path: string): number {
  const size = statSync(path).size;
  const sample = Buffer.alloc(Math.min(size, 64 * 1024));
  const fd = openSync(path, 'r');
  try {
    readSync(fd, sample, 0, sample.length, 0);
  } finally {
    closeSync(fd);
  }
  let lines = 0;
  for (const byte of sample) if (byte === 0x0a) lines++;
  if (lines === 0) return 1;
  return Math.ceil(size / (sample.length / lines));
}
