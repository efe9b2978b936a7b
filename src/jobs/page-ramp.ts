// How many pages of a do-not-contact list are asked for at once. Eight keep this machine busy against a service on
// it; a service across the internet answers each page after its round trip, and eight at once read a million values
// at 20 ms a trip in 32 s where 32 at once take 9 s. So the read starts at 8 and doubles while a step reads faster by
// 15%, to 32; a step that does not pay is taken back (a busy service, or a client that is the slower side, reads no
// faster with more under way, and each one costs memory), and tried again after 8 windows, then 16, 32...: one window
// a pause of the machine slowed would otherwise keep a far service's read at 8 for good. Before the first window and
// after a change, only a round of pages is waited for (of the larger count: the pages asked before a step down are
// still coming), not a whole window: at 20 ms a trip, 32 are under way 0.54 s into the read, where steps of 8, each
// after a window of filling, took 1.5 s (a read of a million values 20 ms away: 8.0 to 7.7 s, against 7.1 s for a
// script with 32 under way from the start).

/** Pages under way at the start, and throughout while no window of pages has taken a quarter of a second. */
const startPages = 8;
const most = 32;
/** What a pace is measured over: 64 pages (at 8 at once and 100 ms a trip, 0.8 s) and a quarter of a second at least
 * (64 pages from a service on this machine take some 60 ms, in which a pause of the collector or of the machine would
 * decide). */
const windowPages = 64;
const windowMs = 250;
/** How much faster a step up must read to be kept. */
const pays = 1.15;
/** Windows at a count a step was taken back to before the step is tried again; twice as many after each try. */
const firstRest = 8;

export class PageRamp {
  private pages = 0;
  private since: number;
  /** Pages a millisecond before the step being judged; undefined when none is. */
  private before: number | undefined;
  /** Pages still to come before a window is the pace of the count under way: at the start, the first round (the
   * connections opening), after a change those asked before it, or the new ones filling the places it added. */
  private settling = startPages;
  /** Windows left before the next step up, and how many the one after a step that does not pay waits. */
  private resting = 0;
  private nextRest = firstRest;
  /** Pages to have under way now. */
  target = startPages;

  constructor(private readonly now: () => number) {
    this.since = now();
  }

  /** A page has come: after each window of them, the pace decides the next target. */
  pageDone(): void {
    this.pages++;
    if (this.settling) {
      if (this.pages < this.settling) return;
      this.settling = 0;
      this.newWindow(this.now());
      return;
    }
    if (this.pages < windowPages) return;
    const now = this.now();
    if (now - this.since < windowMs) return;
    const pace = this.pages / Math.max(now - this.since, 1e-3);
    this.newWindow(now);
    if (this.before !== undefined && pace < this.before * pays) {
      this.before = undefined;
      this.change(this.target / 2);
      this.resting = this.nextRest;
      this.nextRest *= 2;
    } else if (this.resting > 0) {
      this.resting--;
    } else if (this.target < most) {
      this.before = pace;
      this.change(this.target * 2);
    } else {
      this.before = undefined;
    }
  }

  private newWindow(now: number): void {
    this.pages = 0;
    this.since = now;
  }

  /** A new target, and a round of the larger of the two counts to come before a window starts. */
  private change(target: number): void {
    this.settling = Math.max(this.target, target);
    this.target = target;
  }
}
