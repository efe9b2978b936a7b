// The sandbox's prospects, in shards by email: a command reads, and a save writes, only the shards it touched, so a
// 10-row import costs the same on a sandbox holding a million prospects as on a fresh one. Ids made by the store's
// counter find their shard in a table by counter (2 bytes each); the seed's hand-written ids in a small map.
import { counterOf } from './ids.js';
import type { ProspectRecord } from './model.js';

export const shardCount = 4096;

/** FNV-1a of the lower-cased email: spreads real addresses evenly and is the same in every run. */
export function shardOfEmail(email: string): number {
  const key = email.toLowerCase();
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % shardCount;
}

/** Where a shard was last written: the save's generation (its segment file) and the bytes in it. */
export type ShardPlace = [generation: number, offset: number, length: number];

/** Where a saved book's parts are: each shard's place, and the generation the owner table was last written in. */
export interface ProspectFiles {
  generation: number;
  shards: Record<string, ShardPlace>;
  owners?: number;
  /** Shard of each id the counter did not make (the seed's prospects and attributes). */
  named: Record<string, number>;
}

/** Reads a saved book's parts on demand. */
export interface ProspectFileReader {
  shard(place: ShardPlace): ProspectRecord[];
  owners(generation: number): Uint16Array;
}

/** What a save must write: the shards touched since the last save and the owner table if it grew; `files` is where
 * everything is once the save has put the shards written at `places`. */
export interface ProspectChanges {
  generation: number;
  shards: Map<number, ProspectRecord[]>;
  owners?: Uint16Array;
  files(places: Map<number, ShardPlace>): ProspectFiles;
  /** The state naming `files` is on disk. */
  committed(files: ProspectFiles): void;
}

interface Shard {
  prospects: ProspectRecord[];
  byEmail: Map<string, ProspectRecord>;
}

export class ProspectBook {
  private readonly shards: Array<Shard | undefined> = new Array<Shard | undefined>(shardCount);
  /** Shards handed out since the last save: their records may have changed in place. */
  private readonly touched = new Set<number>();
  /** Shard + 1 by counter; 0 where the counter made no prospect or attribute id. */
  private ownerTable: Uint16Array | undefined;
  private ownersChanged = false;

  private constructor(
    private files: ProspectFiles,
    private readonly reader: ProspectFileReader | undefined,
  ) {}

  /** A book in memory (the seed, a state from before shards), every shard to be written on the first save. */
  static of(prospects: ProspectRecord[]): ProspectBook {
    const book = new ProspectBook({ generation: 0, shards: {}, named: {} }, undefined);
    for (const prospect of prospects) {
      book.add(prospect);
      for (const attribute of prospect.attributes) book.own(attribute.attributeId, shardOfEmail(prospect.email));
    }
    return book;
  }

  static saved(files: ProspectFiles, reader: ProspectFileReader): ProspectBook {
    return new ProspectBook(files, reader);
  }

  byEmail(email: string): ProspectRecord | undefined {
    const key = email.toLowerCase();
    return this.shard(shardOfEmail(key)).byEmail.get(key);
  }

  byId(id: string): ProspectRecord | undefined {
    const shard = this.ownerOf(id);
    return shard === undefined ? undefined : this.shard(shard).prospects.find((p) => p.id === id);
  }

  /** The prospect holding an attribute record, found by the attribute's id. */
  byAttributeId(attributeId: string): ProspectRecord | undefined {
    const shard = this.ownerOf(attributeId);
    if (shard === undefined) return undefined;
    return this.shard(shard).prospects.find((p) => p.attributes.some((a) => a.attributeId === attributeId));
  }

  add(prospect: ProspectRecord): void {
    const index = shardOfEmail(prospect.email);
    const shard = this.shard(index);
    shard.prospects.push(prospect);
    shard.byEmail.set(prospect.email.toLowerCase(), prospect);
    this.own(prospect.id, index);
  }

  /** Records that `prospect` now holds an attribute record with this id. */
  attributeAdded(prospect: ProspectRecord, attributeId: string): void {
    this.own(attributeId, shardOfEmail(prospect.email));
  }

  /** The first prospect there is, read-only (a sample for webhook events); reads shards until one has any. */
  first(): ProspectRecord | undefined {
    for (let index = 0; index < shardCount; index++) {
      const found = this.shard(index, { touch: false }).prospects[0];
      if (found) return found;
    }
    return undefined;
  }

  /** Every prospect, shard by shard (reads them all: for checks over the whole book, never a request's path). */
  *all(): Generator<ProspectRecord> {
    for (let index = 0; index < shardCount; index++) yield* this.shard(index).prospects;
  }

  /** A number for a prospect, stable across runs: its id's counter, or its place among the seed's ids. */
  contactNumber(prospect: ProspectRecord): number {
    return counterOf(prospect.id) ?? Object.keys(this.files.named).indexOf(prospect.id) + 1;
  }

  /** What the next save writes. */
  changes(): ProspectChanges {
    const generation = this.files.generation + 1;
    const shards = new Map<number, ProspectRecord[]>();
    for (const index of this.touched) {
      const { prospects } = this.shards[index]!;
      // A shard that was empty and stayed so has nothing to write.
      if (prospects.length || this.files.shards[index]) shards.set(index, prospects);
    }
    const owners = this.ownersChanged ? this.ownerTable : undefined;
    const written = new Set(this.touched);
    return {
      generation,
      shards,
      owners,
      files: (places) => ({
        ...this.files,
        generation,
        shards: { ...this.files.shards, ...Object.fromEntries(places) },
        owners: owners ? generation : this.files.owners,
      }),
      committed: (files) => {
        this.files = files;
        // Saving is synchronous (state-file.ts), so nothing was handed out between changes() and here.
        for (const index of written) this.touched.delete(index);
        if (owners) this.ownersChanged = false;
      },
    };
  }

  /** A shard, read on first use; handed out to be changed in place unless `touch` is false. */
  private shard(index: number, { touch = true } = {}): Shard {
    let shard = this.shards[index];
    if (!shard) {
      const place = this.files.shards[index];
      const prospects = place && this.reader ? this.reader.shard(place) : [];
      shard = { prospects, byEmail: new Map(prospects.map((p) => [p.email.toLowerCase(), p])) };
      this.shards[index] = shard;
    }
    if (touch) this.touched.add(index);
    return shard;
  }

  private ownerOf(id: string): number | undefined {
    // Own keys only: an id such as "constructor" is not in the map.
    if (Object.hasOwn(this.files.named, id)) return this.files.named[id];
    const counter = counterOf(id);
    if (counter === undefined) return undefined;
    const owner = this.owners()[counter] ?? 0;
    return owner === 0 ? undefined : owner - 1;
  }

  private own(id: string, shard: number): void {
    const counter = counterOf(id);
    if (counter === undefined) {
      this.files.named[id] = shard;
      return;
    }
    let table = this.owners();
    if (counter >= table.length) {
      const grown = new Uint16Array(Math.max(counter + 1, table.length * 2));
      grown.set(table);
      table = this.ownerTable = grown;
    }
    table[counter] = shard + 1;
    this.ownersChanged = true;
  }

  private owners(): Uint16Array {
    if (!this.ownerTable) {
      const generation = this.files.owners;
      this.ownerTable =
        generation !== undefined && this.reader ? this.reader.owners(generation) : new Uint16Array(1024);
    }
    return this.ownerTable;
  }
}
