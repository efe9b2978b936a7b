// The sandbox's state as JSON, as versions 1-4 kept it before the database (open-state.ts imports it on first use):
// read, and brought up to date step by step; one from a newer version, or without a version, is refused with what to
// do, never half-read.
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { InputFileError } from '../errors.js';
import { startOver } from './db/sandbox-db.js';
import type { LegacyProspect, LegacyState } from './legacy-state.js';
import { defaultEnrichmentLimits, defaultSearchDisplayLimit, type FieldRecord } from './model.js';

/** The last version of the JSON state. */
const stateVersion = 4;

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

/** Where version 4 kept each prospect shard: in the segment file of a generation, at an offset, so many bytes (or, in
 * the first database layout, in the shards table). */
export interface ProspectFiles {
  shards: Record<string, [generation: number, offset: number, length: number]>;
}

export interface SavedLegacy {
  state: LegacyState;
  prospects(): Iterable<LegacyProspect>;
}

export function loadState(path: string): SavedLegacy | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new InputFileError(path, `cannot read the sandbox state: ${(error as Error).message}`, startOver(path));
  }
  const state = upgrade(path, raw as Record<string, unknown>);
  const { prospects, prospectsFile, ...rest } = state;
  // Before version 4 the prospects were one list, in the state or in one file beside it; then shards in segments.
  const read = (): Iterable<LegacyProspect> => {
    if (Array.isArray(prospects)) return prospects as LegacyProspect[];
    if (typeof prospectsFile === 'string')
      return JSON.parse(readFileSync(join(dirname(path), prospectsFile), 'utf8')) as LegacyProspect[];
    return segmentProspects(path, prospects as ProspectFiles);
  };
  return { state: rest as unknown as LegacyState, prospects: read };
}

/** A state brought up to this version, step by step. */
export function upgrade(path: string, raw: Record<string, unknown>): Record<string, unknown> {
  let state = raw;
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
  return state;
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

function* segmentProspects(statePath: string, files: ProspectFiles): Generator<LegacyProspect> {
  for (const [generation, offset, length] of Object.values(files.shards)) {
    const fd = openSync(segmentFile(statePath, generation), 'r');
    try {
      const bytes = Buffer.allocUnsafe(length);
      if (readSync(fd, bytes, 0, length, offset) !== length) throw new Error(`a prospect shard is cut short`);
      yield* JSON.parse(bytes.toString('utf8')) as LegacyProspect[];
    } finally {
      closeSync(fd);
    }
  }
}
