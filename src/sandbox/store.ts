// What a route works with: the database's tables, the sandbox's settings, its clock, its ids. Every request runs in one
// transaction of its own (`run`): requests of this process take turns at its connection, and other processes at the
// database, so nothing one of them writes is lost; the account's single values (the id counter above all) are read
// once a transaction and written back before it commits.
import type { Clock } from '../context.js';
import { opaqueId } from './ids.js';
import type { SandboxDb } from './db/sandbox-db.js';
import type { Table, TableSpec } from './db/table.js';
import type { SandboxSettings } from './settings.js';
import type { WebhookDispatcher } from './resources/webhooks/delivery.js';
import { buildPeopleIndex, normaliseLinkedinUrl, type IndexedPerson } from './resources/people/people-index.js';
import type { AccountMeta, AccountRecord } from './model.js';

export class Store {
  /** Sends webhook deliveries (set by the Sandbox that owns this store). */
  webhooks: WebhookDispatcher | undefined;
  private people:
    { all: IndexedPerson[]; byId: Map<number, IndexedPerson>; byUrl: Map<string, IndexedPerson> } | undefined;
  /** The account's values as this transaction sees them, and whether it changed them. */
  private accountMeta: AccountMeta | undefined;
  private metaChanged = false;
  /** Transactions waiting for the connection, one at a time. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly db: SandboxDb,
    readonly settings: SandboxSettings,
    readonly clock: Pick<Clock, 'now'>,
  ) {}

  table<T>(spec: TableSpec<T>): Table<T> {
    return this.db.table(spec);
  }

  now(): number {
    return this.clock.now();
  }

  isoNow(): string {
    return new Date(this.clock.now()).toISOString();
  }

  /** Runs `work` in a transaction of its own, after the ones before it; its writes are committed (and on disk, for a
   * file) before it resolves, or none of them is. */
  run<T>(work: () => T | Promise<T>): Promise<T> {
    const next = this.queue.then(async () => {
      this.db.begin();
      this.forgetMeta(); // read afresh in this transaction: another process may have moved the counter
      try {
        const result = await work();
        this.saveMeta();
        this.db.commit();
        return result;
      } catch (error) {
        this.db.rollback();
        throw error;
      } finally {
        this.forgetMeta();
      }
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** `run` for work that does not wait (laying down the seed before the server listens). */
  transaction<T>(work: () => T): T {
    try {
      return this.db.transaction(() => {
        const result = work();
        this.saveMeta();
        return result;
      });
    } finally {
      this.forgetMeta();
    }
  }

  /** The account's single values; `change` them and they are saved with the transaction. */
  meta(): AccountMeta {
    this.accountMeta ??= this.db.meta<AccountMeta>('account');
    if (!this.accountMeta) throw new Error('the sandbox state has no account: it was never seeded');
    return this.accountMeta;
  }

  changeMeta(change: (meta: AccountMeta) => void): void {
    change(this.meta());
    this.metaChanged = true;
  }

  /** Lays down the account's values (a fresh state, a reset). */
  setMeta(meta: AccountMeta): void {
    this.accountMeta = meta;
    this.metaChanged = true;
  }

  account(): AccountRecord {
    return this.meta().account;
  }

  /** A fresh opaque id. */
  id(): string {
    return opaqueId(this.nextCounter());
  }

  /** A fresh number from the id counter (ids that are numbers, as a profile picture's). */
  nextCounter(): number {
    let counter = 0;
    this.changeMeta((meta) => (counter = ++meta.counter));
    return counter;
  }

  /** A fresh 24-hex id, the shape webhook ids have in the real service. */
  hexId(): string {
    const counter = this.nextCounter();
    return (this.meta().seededAt.toString(16).slice(-8) + counter.toString(16).padStart(16, '0'))
      .slice(-24)
      .padStart(24, '0');
  }

  /** The generated people of the search index (built on first use: no command but search and enrich needs it). */
  peopleIndex() {
    if (!this.people) {
      const all = buildPeopleIndex();
      this.people = {
        all,
        byId: new Map(all.map((p) => [p.person.id, p])),
        byUrl: new Map(all.map((p) => [normaliseLinkedinUrl(p.person.linkedin_url), p])),
      };
    }
    return this.people;
  }

  /** Something happened that webhooks subscribe to (spec.md "Events"): delivered in the background. */
  emitEvent(kind: string, data: Record<string, unknown>): void {
    this.webhooks?.dispatch(kind, data);
  }

  private saveMeta(): void {
    if (this.metaChanged && this.accountMeta) this.db.putMeta('account', this.accountMeta);
  }

  private forgetMeta(): void {
    this.accountMeta = undefined;
    this.metaChanged = false;
  }
}
