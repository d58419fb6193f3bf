/**
 * Every change a writing check makes is journaled before its write is sent and undone in reverse
 * order at the end of the run, even when a check fails. Entries are data, not closures: the undo
 * requests, naming the profile token that sends each (never its value). With a file, each line is
 * appended and synced before the write goes out, so a run that dies leaves a record another process
 * (`conformance undo`) can act on. The file is removed once nothing in it is left to undo; what
 * cannot be undone through the API is reported.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { dirname } from 'node:path';
import type { RequestOptions } from './client.js';
import type { TokenName } from './profile.js';

/** The journal's name in a report directory. */
export const JOURNAL_FILE = 'journal.jsonl';

export interface Leak {
  /** What was changed on the target. */
  change: string;
  /** Why it is still changed. */
  reason: string;
}

/** One request that puts a change back. */
export interface UndoStep {
  method: string;
  /** Below the API root, as a check sends it. */
  path: string;
  body?: unknown;
  /** The profile token that sends it; default classic. */
  as?: TokenName;
  /** Statuses that mean it was put back; default any 2xx. */
  ok?: number[];
}

/** Where and how a run sent its requests: the undo requests go the same way. The base URL carries no userinfo. */
export interface JournalTarget {
  baseUrl: string;
  prefix: string;
  vendor: string;
  accept: string;
  scheme: 'Bearer' | 'token';
}

/** A line of the journal file: a run's target, a change with its undo steps, a change the API cannot undo, or a change settled. */
export type JournalLine =
  | { type: 'run'; run: string; target: JournalTarget; startedAt: string }
  | { type: 'change'; id: string; run: string; change: string; undo: UndoStep[] }
  | { type: 'irreversible'; run: string; change: string; reason: string }
  /** `not-made`: the write was refused, so there is nothing to undo. */
  | { type: 'undone' | 'not-made'; id: string };

export interface Entry {
  id: string;
  run: string;
  change: string;
  undo: UndoStep[];
}

/** What a journal file says is left: the targets of its runs, the changes not settled (oldest first), and those the API cannot undo. */
export interface JournalState {
  targets: Map<string, JournalTarget>;
  outstanding: Entry[];
  irreversible: Leak[];
}

/** Sends one undo step and answers its status. */
export type SendStep = (step: UndoStep, run: string) => Promise<number>;

/** Who sends an undo step that names no token: the caller a request names by default. */
const DEFAULT_SENDER: TokenName = 'classic';

/** The request of an undo step: sent even after the run was interrupted, as the named token. */
export const undoRequest = (step: UndoStep): RequestOptions => ({
  method: step.method, path: step.path, as: step.as ?? DEFAULT_SENDER, putBack: true, ...(step.body !== undefined ? { body: step.body } : {}),
});

export class Journal {
  private readonly entries: Entry[];
  readonly leaks: Leak[] = [];
  /** The changes undone, in the order undone. */
  readonly undone: string[] = [];
  private readonly run = randomUUID();
  private seq = 0;
  private fd?: number;
  /** Whether this process answers for the file (it wrote to it, or resumed it): only then is it removed once nothing in it is left. */
  private owns: boolean;

  /** `file` and `target` make it crash-safe: the target is read when the first line is written (after the preflight settled how to send). */
  constructor(private readonly file?: string, private readonly target?: () => JournalTarget, resumed?: Entry[]) {
    this.entries = [...resumed ?? []];
    this.owns = resumed !== undefined;
  }

  get restored(): number {
    return this.undone.length;
  }

  /** The outstanding changes of a journal file, to undo them in this process. */
  static resume(file: string): { journal: Journal; state: JournalState } {
    const state = readJournal(file);
    return { journal: new Journal(file, undefined, state.outstanding), state };
  }

  /** Records a change and how to undo it, before the write is sent; answers its id. */
  record(change: string, given: UndoStep[]): string {
    const id = `${this.run}.${++this.seq}`;
    // The file names the sender of each step, so another process needs no default to read it.
    const undo = given.map((step) => ({ ...step, as: step.as ?? DEFAULT_SENDER }));
    this.append({ type: 'change', id, run: this.run, change, undo });
    this.entries.push({ id, run: this.run, change, undo });
    return id;
  }

  /**
   * Sends a write journaled first; where `made` says the target refused it, the entry is settled as
   * not made. A write that throws stays journaled: it may have reached the target.
   */
  async journaled<T>(change: string, undo: UndoStep[], write: () => Promise<T>, made: (reply: T) => boolean): Promise<T> {
    const id = this.record(change, undo);
    const reply = await write();
    if (!made(reply)) this.settle(id, 'not-made');
    return reply;
  }

  /** Whether a change of that name is recorded and not yet undone. */
  recorded(change: string): boolean {
    return this.entries.some((e) => e.change === change);
  }

  /** Records a change the API offers no way to undo. */
  irreversible(change: string, reason: string): void {
    this.append({ type: 'irreversible', run: this.run, change, reason });
    this.leaks.push({ change, reason });
  }

  /** Undoes every recorded change, newest first; failures become leaks (and stay in the file). Removes the file when nothing in it is left. */
  async unwind(send: SendStep): Promise<void> {
    while (this.entries.length) {
      const entry = this.entries.at(-1)!;
      try {
        for (const step of entry.undo) {
          const status = await send(step, entry.run);
          if (!(step.ok ? step.ok.includes(status) : status >= 200 && status < 300)) throw new Error(`${step.method} ${step.path} answered ${status}`);
        }
        this.settle(entry.id, 'undone');
        this.undone.push(entry.change);
      } catch (err) {
        this.entries.pop();
        this.leaks.push({ change: entry.change, reason: `undo failed: ${(err as Error).message}` });
      }
    }
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    if (this.file && this.owns && !readJournal(this.file).outstanding.length) rmSync(this.file, { force: true });
  }

  private settle(id: string, how: 'undone' | 'not-made'): void {
    this.append({ type: how, id });
    const i = this.entries.findIndex((e) => e.id === id);
    if (i >= 0) this.entries.splice(i, 1);
  }

  /** Appends a line and syncs it to disk before returning: the write it covers goes out only after. */
  private append(line: JournalLine): void {
    if (!this.file) return;
    if (this.fd === undefined) {
      mkdirSync(dirname(this.file), { recursive: true });
      this.fd = openSync(this.file, 'a');
      if (this.target) writeSync(this.fd, `${JSON.stringify({ type: 'run', run: this.run, target: this.target(), startedAt: new Date().toISOString() } satisfies JournalLine)}\n`);
    }
    this.owns = true;
    writeSync(this.fd, `${JSON.stringify(line)}\n`);
    fsyncSync(this.fd);
  }
}

/** Reads a journal file. A last line cut short is ignored: its write was never sent (each line is synced before). */
function readJournal(file: string): JournalState {
  const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim());
  const state: JournalState = { targets: new Map(), outstanding: [], irreversible: [] };
  const settled = new Set<string>();
  for (const [i, text] of lines.entries()) {
    let line: JournalLine;
    try {
      line = JSON.parse(text) as JournalLine;
    } catch {
      if (i === lines.length - 1) break;
      throw new Error(`line ${i + 1} is not JSON`);
    }
    if (line.type === 'run') state.targets.set(line.run, line.target);
    else if (line.type === 'change') state.outstanding.push({ id: line.id, run: line.run, change: line.change, undo: line.undo });
    else if (line.type === 'irreversible') state.irreversible.push({ change: line.change, reason: line.reason });
    else if (line.type === 'undone' || line.type === 'not-made') settled.add(line.id);
    else throw new Error(`line ${i + 1} is not a journal line`);
  }
  state.outstanding = state.outstanding.filter((e) => !settled.has(e.id));
  return state;
}
