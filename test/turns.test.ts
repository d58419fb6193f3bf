/**
 * Waits in parallel: a check waiting for the target parks and the run goes on with independent
 * checks, so checks facing one poll interval wait once; a check that changes the target waits only
 * for the parked checks it could disturb; results keep plan order. The run's clock is virtual: it stands still but for
 * the waits, which are counted, never waited. The reference asks for the platform's 60 s interval.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceProfile } from '../reference/profile.js';
import { startReference, type RunningReference } from '../reference/server.js';
import type { Clock } from '../core/client.js';
import type { CheckResult, RunResult } from '../core/model.js';
import { runConformance } from '../src/runner.js';
import { virtualClock } from './helpers/virtual-clock.js';

const INTERVAL_MS = 60_000;

let reference: RunningReference;
beforeAll(async () => {
  reference = await startReference({ port: 0, pollIntervalSeconds: INTERVAL_MS / 1000 });
});
afterAll(() => reference.close());

async function run(only: string[]): Promise<{ result: RunResult; sleeps: number[] }> {
  const { clock, sleeps } = virtualClock();
  const result = await runConformance({ profile: referenceProfile(reference), allowWrites: true, only, clock });
  return { result, sleeps };
}

const byId = (result: RunResult, id: string): CheckResult => result.checks.find((c) => c.id === id)!;
/** The transcript line of an exchange: method, path and the conditional header it sent, if any. */
const sent = (result: RunResult, id: number): string => {
  const { method, url, headers } = result.transcript[id - 1]!.request;
  const condition = headers['if-none-match'] ? ' if-none-match' : headers['if-modified-since'] ? ' if-modified-since' : '';
  return `${method} ${new URL(url).pathname}${condition}`;
};

describe('checks facing a poll interval', () => {
  it('two independent checks wait once, not twice, and both judge their 304', async () => {
    const { result, sleeps } = await run(['conditional.events-304', 'conditional.notifications-304']);
    expect(result.checks.map((c) => [c.id, c.outcome])).toEqual([['conditional.events-304', 'pass'], ['conditional.notifications-304', 'pass']]);
    expect(sleeps).toEqual([INTERVAL_MS]);
    // The second check read while the first waited: both reads come before either conditional request.
    const order = result.checks.flatMap((c) => c.exchanges).sort((a, b) => a - b).map((id) => sent(result, id));
    expect(order.slice(0, 2).every((line) => !line.includes(' if-'))).toBe(true);
  });

  it('a check that does not wait runs while another waits, and results keep plan order', async () => {
    const { result, sleeps } = await run(['conditional.events-304', 'conditional.poll-interval']);
    expect(result.checks.map((c) => c.id)).toEqual(['conditional.events-304', 'conditional.poll-interval']);
    expect(result.checks.every((c) => c.outcome === 'pass')).toBe(true);
    expect(sleeps).toEqual([INTERVAL_MS]);
    const conditional = byId(result, 'conditional.events-304').exchanges.at(-1)!;
    expect(sent(result, conditional)).toContain('if-none-match');
    expect(Math.max(...byId(result, 'conditional.poll-interval').exchanges)).toBeLessThan(conditional);
  });
});

describe('a check that changes the target', () => {
  /** The first and the last exchange of a check. */
  const span = (result: RunResult, id: string): [number, number] => {
    const { exchanges } = byId(result, id);
    return [Math.min(...exchanges), Math.max(...exchanges)];
  };

  it('runs while a polling check it cannot disturb waits, and waits for one it could disturb', async () => {
    // Updating an alert changes no event timeline; an import pushes commits, and a push is an event.
    const ids = ['conditional.events-304', 'permissions.code-scanning-update', 'permissions.imports-refused'];
    const { result, sleeps } = await run(ids);
    expect(result.checks.map((c) => [c.id, c.outcome])).toEqual(ids.map((id) => [id, 'pass']));
    expect(sleeps).toEqual([INTERVAL_MS]);
    const [read, conditional] = span(result, ids[0]!);
    expect(sent(result, conditional)).toContain('if-none-match');
    const alertWrite = span(result, ids[1]!);
    expect(byId(result, ids[1]!).exchanges.some((id) => sent(result, id).startsWith('PATCH '))).toBe(true);
    expect(alertWrite[0]).toBeGreaterThan(read);
    expect(alertWrite[1]).toBeLessThan(conditional);
    expect(span(result, ids[2]!)[0]).toBeGreaterThan(conditional);
  });

  it('of the first polling check\'s module, runs before the polls it could disturb read, while the others wait', async () => {
    // notifications.mark-read marks threads read, which changes what the notification listings' Last-Modified says.
    const ids = ['notifications.repo-last-modified-304', 'notifications.mark-read', 'conditional.events-304', 'conditional.notifications-304'];
    const { result, sleeps } = await run(ids);
    expect(result.checks.map((c) => [c.id, c.outcome])).toEqual(ids.map((id) => [id, 'pass']));
    expect(sleeps).toEqual([INTERVAL_MS]);
    const writing = span(result, ids[1]!);
    expect(byId(result, ids[1]!).exchanges.some((id) => sent(result, id).startsWith('PUT '))).toBe(true);
    for (const id of [ids[0]!, ids[3]!]) expect(span(result, id)[0]).toBeGreaterThan(writing[1]);
    const events = span(result, ids[2]!);
    expect(events[0]).toBeLessThan(writing[0]);
    expect(events[1]).toBeGreaterThan(writing[1]);
  });
});

describe('a finished run', () => {
  it('is not kept alive by a timer started during a check\'s turn', async () => {
    // A timer keeps the async context it was started in for as long as it lives; undici's clock, started
    // by a check's request, lives as long as the process. Here every reading of the clock starts one.
    const timers: NodeJS.Timeout[] = [];
    const runForgotten = async (): Promise<WeakRef<Clock>> => {
      let now = Date.now();
      const clock: Clock = {
        now: () => {
          if (timers.length < 20_000) timers.push(setTimeout(() => {}, 600_000).unref());
          return now;
        },
        sleep: async (ms) => { now += ms; },
      };
      const result = await runConformance({ profile: referenceProfile(reference), allowWrites: true, only: ['conditional.events-304', 'conditional.notifications-304'], clock });
      expect(result.checks.map((c) => c.outcome)).toEqual(['pass', 'pass']);
      return new WeakRef(clock);
    };
    try {
      const clock = await runForgotten();
      // The client holds the run's clock: while anything holds the client, the clock stays.
      setFlagsFromString('--expose-gc');
      const gc = runInNewContext('gc') as () => void;
      await new Promise((resolve) => setImmediate(resolve));
      gc();
      expect(timers.length).toBeGreaterThan(10);
      expect(clock.deref()).toBeUndefined();
    } finally {
      timers.forEach(clearTimeout);
    }
  });
});
