// Reading and cutting job journals in tests, as a crash would leave them.
import { readFileSync, writeFileSync } from 'node:fs';

/** How many units the journal records as accepted by the service. */
export function acceptedCount(text: string): number {
  return text.split('\n').filter((line) => line.includes('"accepted"')).length;
}

/** Keeps the header and the first `keep` accepted units, as if the run had been killed right after them. */
export function cutJournal(path: string, keep: number): void {
  const [header, ...rest] = readFileSync(path, 'utf8').trim().split('\n');
  const accepted = rest.filter((line) => line.includes('"accepted"')).slice(0, keep);
  writeFileSync(path, `${[header, ...accepted].join('\n')}\n`);
}

/** Keeps the header and every record of the first `keep` units (sent and accepted), as if the run had been killed
 * right after them. */
export function cutJournalUnits(path: string, keep: number): void {
  const [header, ...rest] = readFileSync(path, 'utf8').trim().split('\n');
  const kept = rest.filter((line) => {
    const unit = (JSON.parse(line) as { unit?: unknown }).unit;
    return typeof unit === 'number' && unit < keep;
  });
  writeFileSync(path, `${[header, ...kept].join('\n')}\n`);
}

/** Drops the records that match `pattern` (a chunk's acceptance, as if its answer had been lost; the end). */
export function dropRecords(path: string, pattern: RegExp): void {
  const lines = readFileSync(path, 'utf8').trim().split('\n');
  writeFileSync(path, `${lines.filter((line, i) => i === 0 || !pattern.test(line)).join('\n')}\n`);
}
