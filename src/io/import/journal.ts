// The journal of a chunked upload (prospect import, DNC add): one JSON line per event, appended, so a crash or
// kill -9 loses at most a half line. Line 1 describes the job (input and settings); then one line per chunk the
// service accepted; a last line when every chunk was accepted.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';

export interface JournalHeader {
  /** What kind of job: outreach-import, outreach-dnc-add. */
  journal: string;
  version: 1;
  input: { path: string };
  /** Everything that shapes the chunks and what they mean; a resume must match it exactly. */
  settings: Record<string, unknown>;
}

export interface AcceptedChunk {
  chunk: number;
  firstRow: number;
  lastRow: number;
  rows: number;
  sha256: string;
  /** Asynchronous imports: the id to poll. */
  requestId?: string;
  /** Synchronous imports: the rows the service did not take, as [email, status code]. */
  failed?: Array<[string, number]>;
}

export interface JournalState {
  header: JournalHeader;
  accepted: Map<number, AcceptedChunk>;
  finished: boolean;
}

export function readJournal(path: string, kind = 'outreach-import'): JournalState | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const lines = text.split('\n').filter(Boolean);
  const parsed: unknown[] = [];
  for (const line of lines) {
    try {
      parsed.push(JSON.parse(line));
    } catch {
      // A torn last line from a kill: everything before it stands.
      break;
    }
  }
  const header = parsed[0] as JournalHeader | undefined;
  if (header?.journal !== kind) return undefined;
  const accepted = new Map<number, AcceptedChunk>();
  let finished = false;
  for (const entry of parsed.slice(1) as Array<AcceptedChunk | { finished: true }>) {
    if ('finished' in entry) finished = true;
    else accepted.set(entry.chunk, entry);
  }
  return { header, accepted, finished };
}

export class JournalWriter {
  constructor(readonly path: string) {}

  start(header: JournalHeader): void {
    writeFileSync(this.path, `${JSON.stringify(header)}\n`, { mode: 0o600 });
  }

  accepted(entry: AcceptedChunk): void {
    appendFileSync(this.path, `${JSON.stringify(entry)}\n`);
  }

  finished(chunks: number): void {
    appendFileSync(this.path, `${JSON.stringify({ finished: true, chunks })}\n`);
  }
}

export function sameSettings(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
