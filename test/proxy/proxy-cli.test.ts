/** `conformance proxy` as a user meets it: the compiled bin, a kill in the middle of recording, one-line errors with exit code 2. */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxy, PROXY_HEADER } from '../../proxy/server.js';
import { startReference, type RunningReference } from '../../reference/server.js';
import { packagePath } from '../../core/paths.js';
import { call } from '../helpers/reference.js';
import { serve } from '../helpers/serve.js';
import { tempCassette } from './helpers.js';

const BIN = packagePath('bin', 'conformance.js');
const run = (...args: string[]) => spawnSync(process.execPath, [BIN, 'proxy', ...args], { encoding: 'utf8', timeout: 20_000 });


describe('conformance proxy', () => {
  let reference: RunningReference;
  const blockers: Server[] = [];
  beforeAll(async () => {
    reference = await startReference({ port: 0 });
  });
  afterAll(async () => {
    blockers.forEach((s) => s.close());
    await reference.close();
  });

  it('killed in the middle of recording leaves only whole, parseable fixtures, and a cassette that loads', async () => {
    const fixtures = tempCassette();
    const { child, url, exited } = await serve(['proxy', '--record', '--target', reference.url, '--fixtures', fixtures, '--port', '0']);
    let answered = 0;
    const fire = async (i: number) => {
      try {
        const r = await call(url, `/search/issues?q=widget&per_page=1&page=${i}`);
        if (r.headers[PROXY_HEADER] === 'recorded') answered++;
      } catch {
        // The proxy died under this request.
      }
    };
    // Keep 16 requests in flight and kill once some have been answered, so writes are surely under way.
    let next = 0;
    const workers = Array.from({ length: 16 }, async () => {
      while (next < 400) await fire(next++);
    });
    while (answered < 40) await new Promise((r) => setTimeout(r, 5));
    child.kill('SIGKILL');
    await Promise.all(workers);
    await exited;

    const files = readdirSync(fixtures).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(40);
    for (const f of files) expect(() => JSON.parse(readFileSync(join(fixtures, f), 'utf8')), f).not.toThrow();
    const replay = await createProxy({ mode: 'replay', fixtures, port: 0 });
    try {
      // Every answer the client got was written before it was sent.
      expect(replay.cassette!.size).toBeGreaterThanOrEqual(answered);
      expect((await call(replay.url, '/search/issues?q=widget&per_page=1&page=0')).headers[PROXY_HEADER]).toBe('replayed');
    } finally {
      await replay.close();
    }
  });

  it('prints what it serves, replays, and stops cleanly on SIGTERM', async () => {
    const fixtures = tempCassette();
    const recorder = await createProxy({ mode: 'record', target: reference.url, fixtures, port: 0 });
    await call(recorder.url, '/events');
    await recorder.close();
    const { child, url, stdout, exited } = await serve(['proxy', '--replay', '--fixtures', fixtures, '--port', '0', '--prefix', '/api/v3']);
    expect(stdout().split('\n')[0]).toMatch(/^proxy \(replay\) listening on http:\/\/127\.0\.0\.1:\d+\/api\/v3 \(1 fixtures in /);
    expect((await call(url, '/events')).headers[PROXY_HEADER]).toBe('replayed');
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('gives one line and exit code 2 for bad flags, a missing target, a missing or malformed cassette, a port in use', async () => {
    const malformed = tempCassette();
    await createProxy({ mode: 'record', target: reference.url, fixtures: malformed, port: 0 }).then((p) => p.close());
    writeFileSync(join(malformed, 'get-broken.json'), '{ "version": 1,');
    const blocker = createServer();
    blockers.push(blocker);
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve()));
    const busy = String((blocker.address() as { port: number }).port);
    const cases: [string[], RegExp][] = [
      [['--bogus'], /unknown argument bogus; see --help/],
      [['--record', '--fixtures', tempCassette()], /--record needs --target/],
      [['--record', '--replay', '--fixtures', 'x'], /choose one mode/],
      [['--replay', '--fixtures', tempCassette()], /fixtures folder .* does not exist/],
      [['--replay', '--fixtures', malformed], /fixture get-broken\.json in .* is not valid JSON/],
      [['--replay', '--fixtures', malformed.replace(/fixtures$/, ''), '--port', busy], new RegExp(`port ${busy} on 127\\.0\\.0\\.1 is already in use`)],
      [['--record', '--target', 'not a url', '--fixtures', 'x'], /--target must be an http\(s\) URL, got "not a url"/],
      [['--replay', '--fixtures', 'x', '--latency', 'soon'], /--latency must be milliseconds or "recorded"/],
      [['--passthrough', '--target', reference.url, '--port', '0', '--upstream-timeout', 'soon'], /--upstream-timeout must be a positive number of milliseconds/],
    ];
    for (const [args, message] of cases) {
      const r = run(...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr, args.join(' ')).toMatch(message);
    }
  });
});
