/**
 * The console's status line: on a terminal one line rewritten in place (checks done, failures so far,
 * what the run waits for and until when) and cleared at the end; elsewhere a plain line per wait only.
 */
import { describe, expect, it } from 'vitest';
import { statusLine } from '../src/commands/status-line.js';

const UNTIL = Date.parse('2026-11-26T09:32:39Z');

function console(isTTY: boolean, columns?: number) {
  const written: string[] = [];
  return { written, status: statusLine({ isTTY, ...(columns ? { columns } : {}), write: (text: string) => written.push(text) }) };
}

/** What a terminal shows after the writes: the text after the last carriage return, erase-to-end removed. */
const screen = (written: string[]) => written.join('').split('\r').at(-1)!.replace('\x1b[K', '');

describe('the status line elsewhere than a terminal (a CI log)', () => {
  it('says what it waits for and until when, a line per wait', () => {
    const { written, status } = console(false);
    status.wait({ ms: 60_000, until: UNTIL, asked: 'X-Poll-Interval: 60, and 4 more checks' });
    expect(written).toEqual(['conformance: waiting 60 s, until 09:32:39 UTC, as the target asked (X-Poll-Interval: 60, and 4 more checks); Ctrl-C to stop\n']);
  });

  it('adds no progress lines, and writes what is said as it is', () => {
    const { written, status } = console(false);
    status.progress(1, 676, 0);
    status.progress(2, 676, 1);
    status.say('conformance: note: tokens rejected\n');
    status.end();
    expect(written).toEqual(['conformance: note: tokens rejected\n']);
  });

  it('leaves a short wait unsaid, and quotes a hostile header inert', () => {
    const { written, status } = console(false);
    status.wait({ ms: 1_000, until: UNTIL, asked: 'Retry-After: 1' });
    status.wait(undefined);
    expect(written).toEqual([]);
    status.wait({ ms: 30_000, until: UNTIL, asked: 'Retry-After: \x1b[2J' });
    expect(written[0]).not.toContain('\x1b');
  });
});

describe('the status line on a terminal', () => {
  it('shows checks done of all and failures so far, on one line rewritten in place', () => {
    const { written, status } = console(true);
    status.progress(1, 676, 0);
    status.progress(2, 676, 1);
    expect(written.join('')).not.toContain('\n');
    expect(written.every((w) => w.startsWith('\r') && w.endsWith('\x1b[K'))).toBe(true);
    expect(screen(written)).toBe('conformance: 2/676 checks done, 1 failed');
  });

  it('adds what it waits for while waiting, and drops it when the wait is over', () => {
    const { written, status } = console(true);
    status.progress(40, 676, 0);
    status.wait({ ms: 60_000, until: UNTIL, asked: 'X-Poll-Interval: 60' });
    expect(screen(written)).toMatch(/^conformance: 40\/676 checks done, 0 failed; waiting 60 s, until 09:32:39 UTC, as the target asked \(X-Poll-Interval: 60\)/);
    status.wait(undefined);
    expect(screen(written)).toBe('conformance: 40/676 checks done, 0 failed');
  });

  it('a wait before any check is the whole line, cleared when it is over; a short one is unsaid', () => {
    const { written, status } = console(true);
    status.wait({ ms: 60_000, until: UNTIL, asked: 'X-Poll-Interval: 60' });
    status.wait(undefined);
    expect(written).toHaveLength(2);
    expect(written[0]).toMatch(/^\r.*until 09:32:39 UTC.*\x1b\[K$/);
    expect(written[1]).toBe('\r\x1b[K');
    status.wait({ ms: 1_000, until: UNTIL, asked: 'Retry-After: 1' });
    expect(written).toHaveLength(2);
  });

  it('lifts itself above lines said meanwhile, and is gone at the end', () => {
    const { written, status } = console(true);
    status.progress(3, 10, 0);
    status.say('[ 4/10] FAIL search.max-operators\n');
    const said = written.findIndex((w) => w.includes('FAIL'));
    expect(written[said - 1]).toBe('\r\x1b[K');
    expect(screen(written)).toBe('conformance: 3/10 checks done, 0 failed');
    status.end();
    expect(written.at(-1)).toBe('\r\x1b[K');
    expect(screen(written)).toBe('');
  });

  it('is cut to the terminal width, so it never wraps', () => {
    const { written, status } = console(true, 60);
    status.progress(3, 10, 0);
    status.wait({ ms: 60_000, until: UNTIL, asked: 'X-Poll-Interval: 60' });
    expect(screen(written).length).toBeLessThan(60);
    expect(screen(written)).toMatch(/^conformance: 3\/10 checks done, 0 failed; waiting .*…$/);
  });
});
