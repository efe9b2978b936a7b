// The sandbox's state as JSON, as versions before the database kept it (state-db.ts imports it on first use): read,
// and brought up to date step by step; one from a newer version, or without a version, is refused with what to do,
// never half-read. Writing it stays for tests that make such a state.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import {
  ProspectBook,
  type ProspectChanges,
  type ProspectFileReader,
  type ProspectFiles,
  type ShardPlace,
} from './prospect-book.js';
import { InputFileError } from '../errors.js';
import {
  defaultEnrichmentLimits,
  defaultSearchDisplayLimit,
  stateVersion,
  type FieldRecord,
  type ProspectRecord,
  type SandboxState,
} from './model.js';

/** From version N to N + 1, by N. */
const migrations: Record<number, (state: Record<string, unknown>) => Record<string, unknown>> = {
  // 4: the prospects move to shards on the next save (loadState reads the older forms); nothing to change here.
  3: (state) => state,
  // 3: the prospects moved to a file of their own.
  2: (state) => state,
  // 2: people search and enrichment; the system fields their results import into.
  1: (state) => ({
    ...state,
    fields: [
      ...((state.fields as FieldRecord[] | undefined) ?? []),
      ...searchResultFields(state.fields as FieldRecord[]),
    ],
    searchDisplayLimit: defaultSearchDisplayLimit,
    enrichments: [],
    revealed: [],
    enrichmentLimits: defaultEnrichmentLimits,
    enrichmentStarts: [],
  }),
};

/** The system fields a people-search row fills that version 1 seeds lacked. */
function searchResultFields(fields: FieldRecord[] = []): FieldRecord[] {
  const have = new Set(fields.map((f) => f.label.toLowerCase()));
  return [
    { id: 'fStatexx', label: 'State', fieldType: 'text' as const, isSystem: true, tags: [] },
    { id: 'fDeptxxx', label: 'Department', fieldType: 'text' as const, isSystem: true, tags: [] },
    { id: 'fCoWebst', label: 'Company Website', fieldType: 'text' as const, isSystem: true, tags: [] },
  ].filter((f) => !have.has(f.label.toLowerCase()));
}

export interface SavedSandbox {
  state: SandboxState;
  prospects: ProspectBook;
}

export function loadState(path: string): SavedSandbox | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new InputFileError(path, `cannot read the sandbox state: ${(error as Error).message}`, startOver(path));
  }
  let state = raw as Record<string, unknown>;
  let version = typeof state?.version === 'number' ? state.version : undefined;
  if (version === undefined || version > stateVersion || !Number.isInteger(version)) {
    const seen = version === undefined ? 'no version' : `version ${version}; this outreach reads up to ${stateVersion}`;
    throw new InputFileError(path, `is not a sandbox state this version of outreach reads (${seen})`, startOver(path));
  }
  for (; version < stateVersion; version++) {
    const step = migrations[version];
    if (!step)
      throw new InputFileError(path, `has state version ${version}, which cannot be upgraded`, startOver(path));
    state = { ...step(state), version: version + 1 };
  }
  const { prospects, prospectsFile, ...rest } = state;
  let book: ProspectBook;
  // Before version 4 the prospects were one list, in the state or in one file beside it: they go to shards on the
  // next save.
  if (Array.isArray(prospects)) book = ProspectBook.of(prospects as ProspectRecord[]);
  else if (typeof prospectsFile === 'string')
    book = ProspectBook.of(JSON.parse(readFileSync(join(dirname(path), prospectsFile), 'utf8')) as ProspectRecord[]);
  else book = ProspectBook.saved(prospects as ProspectFiles, shardReader(path));
  return { state: rest as unknown as SandboxState, prospects: book };
}

function startOver(path: string): string {
  return `Start over with \`outreach sandbox reset\` (or \`outreach sandbox reset --state ${path}\`).`;
}

/** Files beside a state that belong to it: its prospect segments and owner tables (and, before version 4, the one
 * prospects file). */
export function isCompanionFile(statePath: string, name: string): boolean {
  const prefix = `${basename(statePath)}.`;
  return (
    name.startsWith(prefix) && /^(seg-\d+\.json|owners-\d+\.bin|prospects-.*\.json)$/.test(name.slice(prefix.length))
  );
}

const segmentFile = (statePath: string, generation: number) => `${statePath}.seg-${generation}.json`;
const ownersFile = (statePath: string, generation: number) => `${statePath}.owners-${generation}.bin`;

function shardReader(statePath: string): ProspectFileReader {
  return {
    shard: ([generation, offset, length]) => {
      const fd = openSync(segmentFile(statePath, generation), 'r');
      try {
        const bytes = Buffer.allocUnsafe(length);
        if (readSync(fd, bytes, 0, length, offset) !== length) throw new Error(`a prospect shard is cut short`);
        return JSON.parse(bytes.toString('utf8')) as ProspectRecord[];
      } finally {
        closeSync(fd);
      }
    },
    owners: (generation) => {
      const bytes = readFileSync(ownersFile(statePath, generation));
      return new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.length >> 1).slice();
    },
  };
}

export interface StateSnapshot {
  main: SandboxState;
  prospects: ProspectChanges;
}

/**
 * Saves a state: the prospect shards touched since the last save go, one after another, to one segment file of a new
 * generation (one file to flush however many shards a save holds), the owner table to its own if it grew; then the
 * state that names where each shard is replaces the old one (the commit point); then segments no shard is in any more
 * go. A crash at any step leaves the old state or the new one, whole.
 */
export function saveState(path: string, snapshot: StateSnapshot): void {
  const { generation, shards, owners } = snapshot.prospects;
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const places = new Map<number, ShardPlace>();
  if (shards.size)
    writeFlushed(segmentFile(path, generation), (fd) => {
      let offset = 0;
      for (const [index, prospects] of shards) {
        const bytes = Buffer.from(JSON.stringify(prospects));
        writeSync(fd, bytes);
        places.set(index, [generation, offset, bytes.length]);
        offset += bytes.length;
      }
    });
  if (owners) {
    const bytes = Buffer.from(owners.buffer, owners.byteOffset, owners.byteLength);
    writeFlushed(ownersFile(path, generation), (fd) => writeSync(fd, bytes));
  }
  // The parts' renames are on disk before the state that names them.
  if (shards.size || owners) syncFolder(dir);
  const files = snapshot.prospects.files(places);
  writeFlushed(path, (fd) => writeSync(fd, JSON.stringify({ ...snapshot.main, prospects: files })));
  syncFolder(dir);
  snapshot.prospects.committed(files);
  const named = new Set(Object.values(files.shards).map(([gen]) => basename(segmentFile(path, gen))));
  if (files.owners !== undefined) named.add(basename(ownersFile(path, files.owners)));
  for (const name of readdirSync(dir))
    if (isCompanionFile(path, name) && !named.has(name)) rmSync(join(dir, name), { force: true });
}

/** Writes beside the target, flushes it to the disk and renames it over the target: a crash leaves the old file or
 * the new one, whole (the rename is durable once the folder is flushed). */
function writeFlushed(path: string, write: (fd: number) => void): void {
  const temp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const fd = openSync(temp, 'wx', 0o600); // a new file: never written through a link left at the name
    try {
      write(fd);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

function syncFolder(dir: string): void {
  const dirFd = openSync(dir, 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}
