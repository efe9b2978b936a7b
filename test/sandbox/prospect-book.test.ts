import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/context.js';
import { opaqueId } from '../../src/sandbox/ids.js';
import type { ProspectRecord } from '../../src/sandbox/model.js';
import { ProspectBook, shardOfEmail } from '../../src/sandbox/prospect-book.js';
import { seedProspects, seedState } from '../../src/sandbox/seed.js';
import { loadState, saveState } from '../../src/sandbox/state-file.js';

const prospect = (counter: number, email: string): ProspectRecord => ({
  id: opaqueId(counter),
  email,
  values: {},
  status: 'active',
  ownerId: 'usOwner01',
  tags: [],
  verificationStatus: 'pending',
  sequences: [],
  attributes: [],
});

const save = (path: string, book: ProspectBook) => saveState(path, { main: seedState(0), prospects: book.changes() });
const companions = (dir: string) => readdirSync(dir).filter((name) => name !== 'state.json');

describe('the sandbox prospect book', () => {
  it('finds prospects by email, id and attribute id after a save and a load, and counts contacts stably', () => {
    const path = join(tempDir(), 'state.json');
    const book = ProspectBook.of(seedProspects());
    const made = prospect(5000, 'Made@Counter.example');
    book.add(made);
    made.attributes.push({ attributeId: opaqueId(5001), fieldRefId: 'cPainPnt', attributeValue: 'slow' });
    book.attributeAdded(made, opaqueId(5001));
    save(path, book);

    const loaded = loadState(path)!.prospects;
    expect(loaded.byEmail('made@counter.EXAMPLE')?.id).toBe(made.id);
    expect(loaded.byId(made.id)?.email).toBe('Made@Counter.example');
    expect(loaded.byId('prLinus05')?.email).toBe('linus@kernel.example');
    expect(loaded.byAttributeId(opaqueId(5001))?.id).toBe(made.id);
    expect(loaded.byAttributeId('atPain005')?.id).toBe('prLinus05');
    expect(loaded.byId(opaqueId(5002))).toBeUndefined();
    expect(loaded.byId('nope')).toBeUndefined();
    expect(loaded.contactNumber(loaded.byId(made.id)!)).toBe(5000);
    expect(loaded.contactNumber(loaded.byId('prGrace02')!)).toBe(2);
    expect([...loaded.all()].map((p) => p.email).sort()).toEqual(
      [...seedProspects().map((p) => p.email), 'Made@Counter.example'].sort(),
    );
  });

  it('writes only the shards a run touched, in one segment a save, and removes segments no shard is in', () => {
    const dir = tempDir();
    const path = join(dir, 'state.json');
    const [a, b] = ['a@one.example', 'b@two.example'];
    save(path, ProspectBook.of([prospect(2000, a), prospect(2001, b)]));
    expect(companions(dir).sort()).toEqual(['state.json.owners-1.bin', 'state.json.seg-1.json']);

    const book = loadState(path)!.prospects;
    book.byEmail(a)!.tags.push('seen');
    save(path, book);
    expect(companions(dir).sort()).toEqual([
      'state.json.owners-1.bin',
      'state.json.seg-1.json',
      'state.json.seg-2.json',
    ]);
    const shards = JSON.parse(readFileSync(path, 'utf8')).prospects.shards;
    expect(shards[shardOfEmail(a)][0]).toBe(2);
    expect(shards[shardOfEmail(b)][0]).toBe(1);
    expect(loadState(path)!.prospects.byEmail(a)!.tags).toEqual(['seen']);

    const again = loadState(path)!.prospects;
    again.byEmail(b)!.tags.push('seen');
    save(path, again);
    expect(companions(dir).sort()).toEqual([
      'state.json.owners-1.bin',
      'state.json.seg-2.json',
      'state.json.seg-3.json',
    ]);

    // Reading a sample and asking for someone who is not there change nothing: the next save writes no segment.
    const before = companions(dir).sort();
    const idle = loadState(path)!.prospects;
    expect(idle.first()).toBeDefined();
    expect(idle.byEmail('nobody@three.example')).toBeUndefined();
    save(path, idle);
    expect(companions(dir).sort()).toEqual(before);
  });

  it('moves a version 3 state, whose prospects were one file, to shards on its first save', () => {
    const dir = tempDir();
    const path = join(dir, 'state.json');
    const { version: _, ...state } = seedState(0);
    writeFileSync(join(dir, 'state.json.prospects-abcd.json'), JSON.stringify(seedProspects()));
    writeFileSync(path, JSON.stringify({ ...state, version: 3, prospectsFile: 'state.json.prospects-abcd.json' }));
    const loaded = loadState(path)!;
    expect(loaded.prospects.byEmail('ada@analytical.io')?.id).toBe('prAda001');
    saveState(path, { main: loaded.state, prospects: loaded.prospects.changes() });
    expect(companions(dir)).not.toContain('state.json.prospects-abcd.json');
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ version: 4 });
    expect(loadState(path)!.prospects.byId('prUnsub04')?.status).toBe('unsubscribed');
  });
});
