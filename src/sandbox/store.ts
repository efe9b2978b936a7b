// The sandbox's state with an injected clock and id source; snapshots to JSON and loads back.
import type { Clock } from '../context.js';
import { opaqueId } from './ids.js';
import type { ProspectBook } from './prospect-book.js';
import type { StateSnapshot } from './state-file.js';
import type { WebhookDispatcher } from './webhook-delivery.js';
import { buildPeopleIndex, normaliseLinkedinUrl, type IndexedPerson } from './people-index.js';
import type { DncListRecord, SandboxState, TaskRecord } from './model.js';

export class Store {
  private tasksById: Map<string, TaskRecord> | undefined;
  private dncIndexes = new Map<string, Set<string>>();
  /** Bumped on every task write, so the cached task selection knows it is stale. */
  private version = 0;
  private selection: { version: number; key: string; tasks: TaskRecord[] } | undefined;
  private changeListeners: Array<() => void> = [];

  /** How long a purchased domain stays inProgress (`sandbox start --provision-seconds`). */
  provisionMs = 5_000;
  /** Sends webhook deliveries (set by the Sandbox that owns this store). */
  webhooks: WebhookDispatcher | undefined;
  /** How long an enrichment job takes (`sandbox start --enrichment-seconds`). */
  enrichmentMs = 3_000;
  private people:
    { all: IndexedPerson[]; byId: Map<number, IndexedPerson>; byUrl: Map<string, IndexedPerson> } | undefined;

  constructor(
    public state: SandboxState,
    public prospects: ProspectBook,
    readonly clock: Pick<Clock, 'now'>,
  ) {}

  now(): number {
    return this.clock.now();
  }

  isoNow(): string {
    return new Date(this.clock.now()).toISOString();
  }

  /** A fresh opaque id. */
  id(): string {
    this.state.counter += 1;
    return opaqueId(this.state.counter);
  }

  /** A fresh 24-hex id, the shape webhook ids have in the real service. */
  hexId(): string {
    this.state.counter += 1;
    return (this.state.seededAt.toString(16).slice(-8) + this.state.counter.toString(16).padStart(16, '0'))
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

  taskIndex(): Map<string, TaskRecord> {
    this.tasksById ??= new Map(this.state.tasks.map((t) => [t.taskId, t]));
    return this.tasksById;
  }

  /** The values of a DNC list, for de-duplication without scanning it. */
  dncIndex(list: DncListRecord): Set<string> {
    let index = this.dncIndexes.get(list.id);
    if (!index) {
      index = new Set(list.items.map((i) => i.value));
      this.dncIndexes.set(list.id, index);
    }
    return index;
  }

  /** The last task selection computed for `key`, kept until a task changes. */
  taskSelection(key: string, compute: () => TaskRecord[]): TaskRecord[] {
    if (this.selection?.version === this.version && this.selection.key === key) return this.selection.tasks;
    const tasks = compute();
    this.selection = { version: this.version, key, tasks };
    return tasks;
  }

  /** Tasks changed in place. */
  touch(): void {
    this.version++;
  }

  replaceState(state: SandboxState, prospects: ProspectBook): void {
    this.state = state;
    this.prospects = prospects;
    this.tasksById = undefined;
    this.dncIndexes.clear();
    this.version++;
    this.changed();
  }

  /** Something happened that webhooks subscribe to (spec.md "Events"): delivered in the background. */
  emitEvent(kind: string, data: Record<string, unknown>): void {
    this.webhooks?.dispatch(kind, data);
  }

  /** Handlers call this after a write, so persistence can follow. */
  changed(): void {
    for (const listener of this.changeListeners) listener();
  }

  onChange(listener: () => void): void {
    this.changeListeners.push(listener);
  }

  /** The state to save, with the prospect shards this run touched (the others stay in their files as they are). */
  snapshot(): StateSnapshot {
    return { main: this.state, prospects: this.prospects.changes() };
  }
}
