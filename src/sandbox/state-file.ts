// The sandbox's state on disk: versioned JSON, written beside the target and renamed so an interrupted save never
// leaves half a file. A file from an older version is brought up to date step by step; one from a newer version,
// or without a version, is refused with what to do, never half-read.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { readProspectsLazily, type StateSnapshot } from './state-snapshot.js';
import { InputFileError } from '../errors.js';
import {
  defaultEnrichmentLimits,
  defaultSearchDisplayLimit,
  stateVersion,
  type FieldRecord,
  type SandboxState,
} from './model.js';

/** From version N to N + 1, by N. */
const migrations: Record<number, (state: Record<string, unknown>) => Record<string, unknown>> = {
  // 3: the prospects move to a file of their own on the next save (snapshotOf); nothing to change here.
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

export function loadState(path: string): SandboxState | undefined {
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
  const loaded = state as unknown as SandboxState;
  if (loaded.prospectsFile) readProspectsLazily(loaded, dirname(path), loaded.prospectsFile);
  return loaded;
}

function startOver(path: string): string {
  return `Start over with \`outreach sandbox reset\` (or \`outreach sandbox reset --state ${path}\`).`;
}

/** Saves a state: prospects that were read go to a new file of their own first, then the state that names it
 * replaces the old one (the commit point), then older prospect files go. A crash at any step leaves the old state or
 * the new one, whole. */
export function saveState(path: string, snapshot: StateSnapshot | string): void {
  if (typeof snapshot === 'string') return writeDurably(path, snapshot);
  const dir = dirname(path);
  const main = { ...snapshot.main };
  if (snapshot.prospects !== undefined) {
    main.prospectsFile = `${basename(path)}.prospects-${randomBytes(4).toString('hex')}.json`;
    writeDurably(join(dir, main.prospectsFile as string), snapshot.prospects);
  }
  writeDurably(path, JSON.stringify(main));
  const current = main.prospectsFile;
  for (const name of readdirSync(dir))
    if (name.startsWith(`${basename(path)}.prospects-`) && name !== current) rmSync(join(dir, name), { force: true });
}

/** Writes beside the target, flushes it to the disk, renames it over the target and flushes the folder: once this
 * returns, a crash or a power cut leaves either the old file or the new one, whole. */
function writeDurably(path: string, json: string): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const fd = openSync(temp, 'w', 0o600);
    try {
      writeSync(fd, json);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  const dirFd = openSync(dir, 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}

/**
 * Saves for a running sandbox that answers a write only once it is on disk. Writes that arrive while a save runs share
 * the next one (group commit), so a burst of writes costs two saves, not one each.
 */
export function durableSaver(path: string, snapshot: () => StateSnapshot | string): () => Promise<void> {
  let running: Promise<void> = Promise.resolve();
  let queued: Promise<void> | undefined;
  return () => {
    // A failed save fails the writes that waited for it, not every later one: the chain goes on after it.
    queued ??= running
      .catch(() => undefined)
      .then(() => {
        queued = undefined;
        running = Promise.resolve().then(() => saveState(path, snapshot()));
        return running;
      });
    return queued;
  };
}
