// How many pages of a do-not-contact list are asked for at once. Eight keep this machine busy against a service on
// it; a service across the internet answers each page after its round trip, and eight at once read a million values
// at 20 ms a trip in 32 s where 32 at once take 9 s. So the read starts at 8 and steps up by 8 while a step reads
// faster by 15%, to 32; a step that does not pay is taken back and the count stays (a busy service, or a
// client that is the slower side, reads no faster with more under way, and each one costs memory).

/** Pages under way at the start, and throughout while no window of pages has taken a quarter of a second. */
const startPages = 8;
const step = 8;
const most = 32;
/** What a pace is measured over: 64 pages (at 8 at once and 100 ms a trip, 0.8 s) and a quarter of a second at least
 * (64 pages from a service on this machine take some 60 ms, in which a pause of the collector or of the machine would
 * decide). */
const windowPages = 64;
const windowMs = 250;
/** How much faster a step up must read to be kept. */
const pays = 1.15;

export class PageRamp {
  private pages = 0;
  private since: number;
  /** Pages a millisecond before the last step up. */
  private before: number | undefined;
  private settled = false;
  /** The first window (connections opening, code warming up) and the one after a step (filling the new places) are
   * not the pace of their count. */
  private filling = true;
  /** Pages to have under way now. */
  target = startPages;

  constructor(private readonly now: () => number) {
    this.since = now();
  }

  /** A page has come: after each window of them, the pace decides the next target. */
  pageDone(): void {
    if (this.settled || ++this.pages < windowPages) return;
    const now = this.now();
    if (now - this.since < windowMs) return;
    const pace = this.pages / Math.max(now - this.since, 1e-3);
    this.pages = 0;
    this.since = now;
    if (this.filling) {
      this.filling = false;
      return;
    }
    if (this.before !== undefined && pace < this.before * pays) {
      this.target -= step;
      this.settled = true;
    } else if (this.target >= most) this.settled = true;
    else {
      this.before = pace;
      this.target += step;
      this.filling = true;
    }
  }
}
