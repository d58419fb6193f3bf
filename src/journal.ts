/**
 * Every change a writing check makes is journaled as it is made and undone in reverse order at
 * the end of the run, even when a check fails. What cannot be undone through the API is reported.
 */
export interface Leak {
  /** What was changed on the target. */
  change: string;
  /** Why it is still changed. */
  reason: string;
}

interface Entry {
  change: string;
  undo: () => Promise<void>;
}

export class Journal {
  private readonly entries: Entry[] = [];
  readonly leaks: Leak[] = [];
  restored = 0;

  /** Records a change and how to undo it. */
  record(change: string, undo: () => Promise<void>): void {
    this.entries.push({ change, undo });
  }

  /** Whether a change of that name is recorded and not yet undone. */
  recorded(change: string): boolean {
    return this.entries.some((e) => e.change === change);
  }

  /** Records a change the API offers no way to undo. */
  irreversible(change: string, reason: string): void {
    this.leaks.push({ change, reason });
  }

  /** Undoes every recorded change, newest first; failures become leaks. */
  async unwind(): Promise<void> {
    while (this.entries.length) {
      const entry = this.entries.pop()!;
      try {
        await entry.undo();
        this.restored += 1;
      } catch (err) {
        this.leaks.push({ change: entry.change, reason: `undo failed: ${(err as Error).message}` });
      }
    }
  }
}
