/**
 * The console's line while the run waits for the target: what for and until when. On a terminal it
 * is one line rewritten in place and cleared when the wait is over; elsewhere, a plain line per wait.
 */
import { terminalText } from '../../core/inert.js';
import type { Wait } from '../../core/client.js';

/** Only a wait long enough to look like a hang is said, with how to end it. */
const SAID_FROM_MS = 5000;

export function waitingLine(out: { isTTY?: boolean; write(text: string): unknown }): (wait: Wait | undefined) => void {
  let shown = false;
  return (wait) => {
    if (!wait || wait.ms < SAID_FROM_MS) {
      if (shown && out.isTTY) out.write('\r\x1b[K');
      shown = false;
      return;
    }
    const until = new Date(wait.until).toISOString().slice(11, 19);
    const text = `conformance: waiting ${Math.round(wait.ms / 1000)} s, until ${until} UTC, as the target asked (${terminalText(wait.asked)}); Ctrl-C to stop`;
    out.write(out.isTTY ? `\r${text}\x1b[K` : `${text}\n`);
    shown = true;
  };
}
