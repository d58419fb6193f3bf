/** The console's waiting line: on a terminal one line rewritten in place and cleared after; elsewhere a plain line per wait. */
import { describe, expect, it } from 'vitest';
import { waitingLine } from '../src/commands/waiting-line.js';

const UNTIL = Date.parse('2026-11-26T09:32:39Z');

function console(isTTY: boolean) {
  const written: string[] = [];
  return { written, onWait: waitingLine({ isTTY, write: (text: string) => written.push(text) }) };
}

describe('the waiting line', () => {
  it('says what it waits for and until when', () => {
    const { written, onWait } = console(false);
    onWait({ ms: 60_000, until: UNTIL, asked: 'X-Poll-Interval: 60, and 4 more checks' });
    expect(written).toEqual(['conformance: waiting 60 s, until 09:32:39 UTC, as the target asked (X-Poll-Interval: 60, and 4 more checks); Ctrl-C to stop\n']);
  });

  it('on a terminal rewrites one line and clears it when the wait is over', () => {
    const { written, onWait } = console(true);
    onWait({ ms: 60_000, until: UNTIL, asked: 'X-Poll-Interval: 60' });
    onWait(undefined);
    expect(written).toHaveLength(2);
    expect(written[0]).toMatch(/^\r.*until 09:32:39 UTC.*\x1b\[K$/);
    expect(written[0]).not.toContain('\n');
    expect(written[1]).toBe('\r\x1b[K');
  });

  it('leaves a short wait unsaid, and quotes a hostile header inert', () => {
    const { written, onWait } = console(false);
    onWait({ ms: 1_000, until: UNTIL, asked: 'Retry-After: 1' });
    onWait(undefined);
    expect(written).toEqual([]);
    onWait({ ms: 30_000, until: UNTIL, asked: 'Retry-After: \x1b[2J' });
    expect(written[0]).not.toContain('\x1b');
  });
});
