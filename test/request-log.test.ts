/**
 * `--log` on `conformance reference` and `conformance proxy`: one stderr line per request naming
 * method, path, status, what answered it (endpoint, fixture, recorded) or `miss`, and milliseconds;
 * nothing per request without it; a token in a query string never reaches a line.
 */
import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { call } from './helpers/reference.js';
import { serve, stop, type Served } from './helpers/serve.js';
import { tempCassette } from './proxy/helpers.js';

const SECRET = 'query-secret-4f9a1c2e';
const LINE = /^(GET|POST|PATCH|PUT|DELETE|HEAD) (\S+) (\d{3}) (.+) (\d+) ms$/;

/** The log lines on stderr, parsed; every stderr line must be one. */
function lines(served: Served): { method: string; path: string; status: number; outcome: string }[] {
  return served.stderr().split('\n').filter(Boolean).map((line) => {
    const m = LINE.exec(line);
    expect(m, line).not.toBeNull();
    return { method: m![1]!, path: m![2]!, status: Number(m![3]), outcome: m![4]! };
  });
}

/** Waits until `n` log lines are out (a line follows its answer by a moment). */
async function untilLines(served: Served, n: number): Promise<void> {
  for (let i = 0; i < 100 && served.stderr().split('\n').filter(Boolean).length < n; i++) await new Promise((r) => setTimeout(r, 20));
}

describe('request logs', () => {
  const started: Served[] = [];
  const start = async (...args: string[]) => {
    const s = await serve(args);
    started.push(s);
    return s;
  };
  afterEach(async () => {
    await Promise.all(started.splice(0).map((s) => stop(s.child)));
  });

  it('the reference logs each request with its endpoint or miss, the query token masked', async () => {
    const ref = await start('reference', '--port', '0', '--prefix', '/api/v3', '--log');
    await call(ref.url, `/events?per_page=1&access_token=${SECRET}`);
    await call(ref.url, '/no/such/endpoint');
    await untilLines(ref, 2);
    expect(lines(ref)).toEqual([
      { method: 'GET', path: '/api/v3/events?per_page=1&access_token=[REDACTED]', status: 200, outcome: 'endpoint events.public' },
      { method: 'GET', path: '/api/v3/no/such/endpoint', status: 404, outcome: 'miss' },
    ]);
    expect(ref.stderr()).not.toContain(SECRET);
  });

  it('without --log neither the reference nor the proxy writes anything per request', async () => {
    const ref = await start('reference', '--port', '0');
    const proxy = await start('proxy', '--passthrough', '--target', ref.url, '--port', '0');
    await call(proxy.url, '/events?per_page=1');
    await call(ref.url, '/events?per_page=1');
    await new Promise((r) => setTimeout(r, 200));
    expect(ref.stderr()).toBe('');
    expect(proxy.stderr()).toBe('');
  });

  it('the proxy logs recorded exchanges, then in replay the fixture file of a hit and miss for a miss', async () => {
    const fixtures = tempCassette();
    const ref = await start('reference', '--port', '0', '--prefix', '/api/v3');
    const recorder = await start('proxy', '--record', '--target', ref.url, '--fixtures', fixtures, '--port', '0', '--log');
    expect((await call(recorder.url, `/events?per_page=1&access_token=${SECRET}`)).status).toBe(200);
    await untilLines(recorder, 1);
    expect(lines(recorder)).toEqual([{ method: 'GET', path: '/api/v3/events?per_page=1&access_token=[REDACTED]', status: 200, outcome: 'recorded' }]);
    await stop(recorder.child);

    const replay = await start('proxy', '--replay', '--fixtures', fixtures, '--port', '0', '--log');
    expect((await call(replay.url, `/events?per_page=1&access_token=${SECRET}`)).status).toBe(200);
    expect((await call(replay.url, `/events?per_page=2&token=${SECRET}`)).status).toBe(404);
    await untilLines(replay, 2);
    const [hit, miss] = lines(replay);
    const fixture = /^fixture (\S+)$/.exec(hit!.outcome)?.[1];
    expect(readdirSync(fixtures)).toContain(fixture);
    expect(hit).toMatchObject({ method: 'GET', path: '/api/v3/events?per_page=1&access_token=[REDACTED]', status: 200 });
    expect(miss).toEqual({ method: 'GET', path: '/api/v3/events?per_page=2&token=[REDACTED]', status: 404, outcome: 'miss' });
    expect(recorder.stderr() + replay.stderr()).not.toContain(SECRET);
  });
});
