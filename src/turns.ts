/**
 * Checks take turns on the one client: one check runs at a time, so requests of two checks never
 * interleave, but a check waiting for the target (X-Poll-Interval, a rate-limit reset, Retry-After)
 * parks, and the runner goes on with other checks meanwhile. When every check in hand is parked, the
 * run waits once, until the earliest of them may go on; a parked check goes on only between turns.
 */
import type { Client, Wait } from '../core/client.js';
import { Interrupted } from '../core/client.js';

interface Parked extends Wait {
  index: number;
  measuring: boolean;
  done: Promise<unknown>;
  resume(): void;
  fail(err: Error): void;
}

export class Turns {
  /** In plan order. */
  private readonly parked: Parked[] = [];
  /** Ends the runner's wait for the turn under way: called when its check parks. */
  private yielded: () => void = () => undefined;

  constructor(private readonly client: Client) {}

  /** Starts check `index` (`measuring`: see Turn); answers once it is done or parked. */
  begin(index: number, measuring: boolean, run: () => Promise<void>): Promise<void> {
    return this.turn(() => {
      // The check may park before `within` returns (a wait before its first request), so `done` exists first.
      let end!: { resolve: () => void; reject: (err: unknown) => void };
      const done = new Promise<void>((resolve, reject) => { end = { resolve, reject }; });
      this.client.within({ exchanges: [], measuring, park: (wait) => this.park({ ...wait, index, measuring, done }) }, run).then(end.resolve, end.reject);
      return done;
    });
  }

  /**
   * Lets the parked checks whose wait is over go on, measuring ones first (they must send their
   * conditional request themselves; the others can then take its answer, `reuse`, rather than wait
   * another interval for the same URL), then in plan order, each until it is done or parks again;
   * then waits until no parked check `blocks` (by plan index) is left: those the check to come could
   * disturb, or see disturbed.
   */
  async settle(blocks: (index: number) => boolean = () => false): Promise<void> {
    for (;;) {
      const now = this.client.now();
      const due = this.parked.find((p) => p.until <= now && p.measuring) ?? this.parked.find((p) => p.until <= now);
      if (due) {
        this.parked.splice(this.parked.indexOf(due), 1);
        await this.turn(() => (due.resume(), due.done));
        continue;
      }
      const blocking = this.parked.filter((p) => blocks(p.index));
      if (!blocking.length) return;
      const next = blocking.reduce((a, b) => (b.until < a.until ? b : a));
      const others = blocking.length - 1;
      try {
        await this.client.waitOut({ ms: next.until - now, until: next.until, asked: `${next.asked}${others ? `, and ${others} more check${others > 1 ? 's' : ''}` : ''}` });
      } catch (err) {
        if (!(err instanceof Interrupted)) throw err;
        // Ctrl-C: every parked check ends as its own wait would have.
        for (const p of this.parked.splice(0)) await this.turn(() => (p.fail(err), p.done));
      }
    }
  }

  private park(parked: Omit<Parked, 'resume' | 'fail'>): Promise<void> {
    return new Promise((resume, fail) => {
      const at = this.parked.findIndex((p) => p.index > parked.index);
      this.parked.splice(at < 0 ? this.parked.length : at, 0, { ...parked, resume, fail });
      this.yielded();
    });
  }

  /** Runs one turn: `go` starts or resumes a check; answers when that check is done or parks, and fails as the check does. */
  private turn(go: () => Promise<unknown>): Promise<void> {
    return new Promise((resolve, reject) => {
      this.yielded = resolve;
      go().then(() => resolve(), reject);
    });
  }
}
