/**
 * The console's status line while the run goes on. On a terminal it is one line rewritten in place:
 * checks done of all, failures so far, and what the run waits for and until when; cleared when the
 * run ends, and lifted above whatever else is written meanwhile. Elsewhere (a CI log) only the waits
 * are said, a plain line each: a log of progress lines would drown the summary.
 */
import { terminalText } from '../../core/inert.js';
import type { Wait } from '../../core/client.js';

/** Only a wait long enough to look like a hang is said, with how to end it. */
const SAID_FROM_MS = 5000;

export interface StatusOut {
  isTTY?: boolean;
  /** The terminal's width: a longer line would wrap, and a wrapped line cannot be rewritten in place. */
  columns?: number;
  write(text: string): unknown;
}

export interface StatusLine {
  /** A wait the target asked for begins; `undefined`: it is over. */
  wait(wait: Wait | undefined): void;
  /** `done` checks of `total` are reported, `failed` of them failed. */
  progress(done: number, total: number, failed: number): void;
  /** Writes whole lines (notices, --verbose) above the status line. */
  say(lines: string): void;
  /** The run is over: the line goes. */
  end(): void;
}

export function statusLine(out: StatusOut): StatusLine {
  let waiting: Wait | undefined;
  let progress = '';
  let shown = false;
  const waitText = (wait: Wait) => {
    const until = new Date(wait.until).toISOString().slice(11, 19);
    return `waiting ${Math.round(wait.ms / 1000)} s, until ${until} UTC, as the target asked (${terminalText(wait.asked)}); Ctrl-C to stop`;
  };
  const draw = () => {
    const text = [progress, waiting ? waitText(waiting) : ''].filter(Boolean).join('; ');
    if (!text) return clear();
    const width = out.columns && out.columns > 1 ? out.columns - 1 : Infinity;
    const line = `conformance: ${text}`;
    out.write(`\r${line.length > width ? `${line.slice(0, width - 1)}…` : line}\x1b[K`);
    shown = true;
  };
  const clear = () => {
    if (shown) out.write('\r\x1b[K');
    shown = false;
  };
  if (!out.isTTY) {
    return {
      wait: (wait) => { if (wait && wait.ms >= SAID_FROM_MS) out.write(`conformance: ${waitText(wait)}\n`); },
      progress: () => undefined,
      say: (lines) => out.write(lines),
      end: () => undefined,
    };
  }
  return {
    wait: (wait) => {
      waiting = wait && wait.ms >= SAID_FROM_MS ? wait : undefined;
      draw();
    },
    progress: (done, total, failed) => {
      progress = `${done}/${total} checks done, ${failed} failed`;
      draw();
    },
    say: (lines) => {
      clear();
      out.write(lines);
      draw();
    },
    end: clear,
  };
}
