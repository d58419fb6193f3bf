/**
 * Pacing a hostile target cannot turn against the user: a wait it asks for past --max-wait skips the
 * check at once, a throttled answer is waited out (within the caps) and sent once more, the run's
 * waits together are bounded, and Ctrl-C ends a run in the middle of a wait.
 */
import type { IncomingMessage } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../src/runner.js';
import type { RunResult } from '../../core/model.js';
import { json, startAlteredReference, type Alteration, type Answer } from '../helpers/altered-reference.js';
import { startCli } from '../helpers/cli.js';
import { useReference } from '../helpers/reference.js';
import { alertState, runUntilWaiting } from '../helpers/waiting-run.js';

/** The repository event timeline, without a query: what the conditional checks read (the preflight adds ?per_page=1). */
const isTimeline = (req: IncomingMessage) => /^\/repos\/[^/]+\/[^/]+\/events$/.test(req.url ?? '');

/** Runs the checks matching `grep` against the reference behind `alteration`; answers the result and the seconds it took. */
async function runThrough(alteration: Alteration, grep: string, caps: { maxWaitMs?: number; maxTotalWaitMs?: number } = {}): Promise<{ result: RunResult; seconds: number }> {
  const front = await startAlteredReference(alteration);
  const started = Date.now();
  try {
    const result = await runConformance({ profile: front.profile, grep, ...caps });
    return { result, seconds: (Date.now() - started) / 1000 };
  } finally {
    await front.close();
  }
}

const check = (result: RunResult, id: string) => result.checks.find((c) => c.id === id)!;

describe('a wait the target asks for past --max-wait', () => {
  it('X-Poll-Interval: 86400 skips the polling check at once, naming what was asked and the cap', async () => {
    const dayLong: Alteration = { change: (req, a) => (isTimeline(req) ? { ...a, headers: { ...a.headers, 'x-poll-interval': '86400' } } : a) };
    const { result, seconds } = await runThrough(dayLong, 'conditional.events-304', { maxWaitMs: 30_000 });
    const polled = check(result, 'conditional.events-304');
    expect(polled.outcome).toBe('skip');
    expect(polled.skipReason).toBe('wait-too-long');
    expect(polled.message).toContain('X-Poll-Interval: 86400');
    expect(polled.message).toContain('30 s');
    expect(seconds).toBeLessThan(15);
  });

  it('429 with Retry-After: 86400 skips the check without sending again', async () => {
    let sent = 0;
    const throttled: Alteration = { instead: (req) => (isTimeline(req) ? (sent += 1, json(429, { message: 'slow down' }, { 'retry-after': '86400' })) : undefined) };
    const { result, seconds } = await runThrough(throttled, 'conditional.events-etag-quoted', { maxWaitMs: 30_000 });
    const c = check(result, 'conditional.events-etag-quoted');
    expect(c.skipReason).toBe('wait-too-long');
    expect(c.message).toContain('Retry-After: 86400');
    expect(sent).toBe(1);
    expect(result.requests.total).toBeLessThan(20);
    expect(seconds).toBeLessThan(15);
  });
});

describe('a throttled answer within the caps', () => {
  const resetInASecond = () => ({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 1) });
  it.each([
    ['429 with Retry-After: 1', 429, () => ({ 'retry-after': '1' })],
    ['403 with Retry-After: 1', 403, () => ({ 'retry-after': '1' })],
    ['403 with X-RateLimit-Remaining: 0 until the next second', 403, resetInASecond],
  ] as const)('%s is waited out, then the request is sent once more and judged', async (_, status, headers) => {
    const arrivals: number[] = [];
    const once: Alteration = {
      instead: (req) => {
        if (!isTimeline(req)) return undefined;
        arrivals.push(Date.now());
        return arrivals.length === 1 ? json(status, { message: 'slow down' }, headers()) : undefined;
      },
    };
    const { result } = await runThrough(once, 'conditional.events-etag-quoted');
    expect(check(result, 'conditional.events-etag-quoted').outcome).toBe('pass');
    expect(arrivals).toHaveLength(2);
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(950);
  });

  it('is not waited for once the run\'s waits together would pass --max-total-wait', async () => {
    // The check's read is throttled for a second, which fits 1.5 s; its conditional request must then wait out the 1 s poll interval, which does not.
    let n = 0;
    const firstThrottled: Alteration = { instead: (req) => (isTimeline(req) && n++ === 0 ? json(429, { message: 'slow down' }, { 'retry-after': '1' }) as Answer : undefined) };
    const { result } = await runThrough(firstThrottled, 'conditional.events-304', { maxTotalWaitMs: 1500 });
    const polled = check(result, 'conditional.events-304');
    expect(n).toBe(2);
    expect(polled.skipReason).toBe('wait-too-long');
    expect(polled.message).toContain('X-Poll-Interval');
    expect(polled.message).toContain('1.5 s allowed in all');
  });
});

describe('Ctrl-C', () => {
  const ref = useReference();
  const dir = mkdtempSync(join(tmpdir(), 'pacing-sigint-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('during a request the target never answers ends it at once: exit 130, the check skipped as interrupted', async () => {
    let reached: () => void = () => undefined;
    const hanging = new Promise<void>((resolve) => { reached = resolve; });
    const front = await startAlteredReference({ hangs: (req) => isTimeline(req) && (reached(), true) });
    try {
      const reportDir = join(dir, 'hanging');
      const running = startCli(['--base-url', front.url, '--profile', 'reference', '--grep', 'conditional.events-etag-quoted', '--report-dir', reportDir]);
      await hanging;
      const sent = Date.now();
      running.child.kill('SIGINT');
      const exit = await running.exited;
      expect((Date.now() - sent) / 1000).toBeLessThan(5);
      expect(exit.status).toBe(130);
      const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as RunResult;
      expect(check(report, 'conditional.events-etag-quoted').skipReason).toBe('interrupted');
    } finally {
      await front.close();
    }
  }, 60_000);

  it('while the run waits out a 60 s X-Poll-Interval exits 130 within seconds, the check in progress skipped as interrupted, its changes undone and the reports written', async () => {
    const run = await runUntilWaiting(ref.url, dir);
    expect(await alertState(ref.url, run.alert)).toBe('dismissed');
    const sent = Date.now();
    run.running.child.kill('SIGINT');
    const exit = await run.running.exited;
    expect((Date.now() - sent) / 1000).toBeLessThan(5);
    expect(exit.status).toBe(130);
    const report = JSON.parse(readFileSync(join(run.reportDir, 'report.json'), 'utf8')) as RunResult;
    expect(report.stopped?.reason).toBe('interrupted');
    expect(check(report, 'conditional.events-304').skipReason).toBe('interrupted');
    expect(check(report, 'alerts.dismiss').outcome).toBe('pass');
    expect(report.restoration).toEqual({ restored: 1, leaks: [] });
    expect(await alertState(ref.url, run.alert)).toBe('open');
    expect(existsSync(run.journal)).toBe(false);
  }, 60_000);
});
