// Numbers and durations as people read them, for messages from any layer.

/** A count with thousands separated as en-US writes them. Whole numbers are grouped here: the first toLocaleString
 * call loads ICU's locale data, about 17 ms of a command's start. */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  return (n < 0 ? '-' : '') + String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** A count and its noun, plural unless it is 1: "1 value", "2,000 rows". */
export function plural(n: number, word: string): string {
  return `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;
}

export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

/** `2026-11-22T17:05:09.123Z` -> `20261122-170509`, for file names that sort by time. */
export function fileStamp(now: number): string {
  return new Date(now).toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

export { clockTime } from './clock-time.js';
