/** Record from the reference, then replay with the reference gone: same answers, no connection, sequences, sessions, near misses. */
import { cpSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxy, PROXY_HEADER, SESSION_HEADER, type RunningProxy } from '../../proxy/server.js';
import { startReference } from '../../reference/server.js';
import { call, TOKENS, type CallOptions, type Reply } from '../helpers/reference.js';
import { countConnections, tempCassette } from './helpers.js';

const IMPORT = '/repos/acme/import-target/import';
const START = { method: 'PUT', body: { vcs_url: 'https://svn.example.invalid/ok/trunk', vcs: 'subversion' } };
const POLLS = 10;
/** Requests whose answers must replay exactly (the import is polled past its completion). */
const SCRIPT: [string, CallOptions][] = [
  ['/search/issues?q=widget&per_page=2', {}],
  ['/notifications', {}],
  ['/events?per_page=3', { token: null }],
  ['/repos/acme/widgets/code-scanning/alerts', {}],
  [IMPORT, START],
  ...Array.from({ length: POLLS }, (): [string, CallOptions] => [IMPORT, {}]),
];

const inSession = (session: string, opts: CallOptions = {}): CallOptions => ({ ...opts, headers: { ...opts.headers, [SESSION_HEADER]: session } });
/** A body with the API root it was served from replaced, to compare answers of two proxies. */
const normalized = (r: Reply, base: string) => JSON.parse(r.text.split(base).join('BASE')) as unknown;

describe('record, then replay with the upstream gone', () => {
  const fixtures = tempCassette();
  const recorded: Reply[] = [];
  let recordUrl = '';
  let upstreamPort = 0;
  let replay: RunningProxy;
  let counter: Awaited<ReturnType<typeof countConnections>>;

  beforeAll(async () => {
    const reference = await startReference({ port: 0 });
    const recorder = await createProxy({ mode: 'record', target: reference.url, fixtures, port: 0 });
    recordUrl = recorder.url;
    for (const [path, opts] of SCRIPT) recorded.push(await call(recorder.url, path, opts));
    await recorder.close();
    await reference.close();
    // Where the upstream was, something now counts every connection attempt.
    upstreamPort = reference.port;
    counter = await countConnections(upstreamPort);
    replay = await createProxy({ mode: 'replay', fixtures, port: 0 });
  });
  afterAll(async () => {
    await replay.close();
    await counter.close();
  });

  it('recorded one file per exchange, identical polls as one key in sequence', () => {
    expect(recorded.every((r) => r.headers[PROXY_HEADER] === 'recorded')).toBe(true);
    const files = readdirSync(fixtures).filter((f) => f.startsWith('get-repos-acme-import-target-import-'));
    expect(files).toHaveLength(POLLS);
    expect(files.map((f) => f.slice(-9))).toContain('-009.json');
  });

  it('replays every answer (status and body, addresses aside) without a single connection to the upstream', async () => {
    for (const [i, [path, opts]] of SCRIPT.entries()) {
      const r = await call(replay.url, path, inSession('fidelity', opts));
      expect(r.headers[PROXY_HEADER], path).toBe('replayed');
      expect(r.status, path).toBe(recorded[i]!.status);
      expect(normalized(r, replay.url), path).toEqual(normalized(recorded[i]!, recordUrl));
    }
    expect(counter.count()).toBe(0);
  });

  it('replays an import\'s states in recorded order, then stays on the last', async () => {
    const statuses = (replies: Reply[]) => replies.map((r) => (r.body as { status: string }).status);
    const expected = statuses(recorded.slice(-POLLS));
    expect(expected[0]).not.toBe(expected.at(-1));
    expect(expected.at(-1)).toBe('complete');
    await call(replay.url, IMPORT, inSession('order', START));
    const seen: Reply[] = [];
    for (let i = 0; i < POLLS + 3; i++) seen.push(await call(replay.url, IMPORT, inSession('order')));
    expect(statuses(seen)).toEqual([...expected, 'complete', 'complete', 'complete']);
  });

  it('keeps sequence positions per session', async () => {
    const status = async (session: string) => ((await call(replay.url, IMPORT, inSession(session))).body as { status: string }).status;
    const first = (recorded.at(-POLLS)!.body as { status: string }).status;
    const second = (recorded.at(-POLLS + 1)!.body as { status: string }).status;
    expect(await status('a')).toBe(first);
    expect(await status('b')).toBe(first);
    expect(await status('a')).toBe(second);
    expect(await status('b')).toBe(second);
  });

  it('matches a query whatever the order of its parameters', async () => {
    const r = await call(replay.url, '/search/issues?per_page=2&q=widget');
    expect(r.headers[PROXY_HEADER]).toBe('replayed');
    expect(normalized(r, replay.url)).toEqual(normalized(recorded[0]!, recordUrl));
  });

  it('rewrites addresses of the recorded upstream in bodies and Link headers to the proxy', async () => {
    const r = await call(replay.url, '/search/issues?q=widget&per_page=2');
    const upstream = `127.0.0.1:${upstreamPort}`;
    expect(r.text).not.toContain(upstream);
    expect(JSON.stringify(r.headers)).not.toContain(upstream);
    expect(r.headers.link).toContain(`<${replay.url}/search/issues?`);
    expect((r.body as { items: { url: string }[] }).items[0]!.url.startsWith(`${replay.url}/repos/`)).toBe(true);
  });

  it('matches below its own prefix: /api/v3/search/issues finds the fixture recorded as /search/issues', async () => {
    const prefixed = await createProxy({ mode: 'replay', fixtures, port: 0, prefix: '/api/v3' });
    try {
      expect(prefixed.url.endsWith('/api/v3')).toBe(true);
      const r = await call(prefixed.url, '/search/issues?q=widget&per_page=2');
      expect(r.headers[PROXY_HEADER]).toBe('replayed');
      expect(r.headers.link).toContain(`<${prefixed.url}/search/issues?`);
      expect(normalized(r, prefixed.url)).toEqual(normalized(recorded[0]!, recordUrl));
      const outside = await call(prefixed.origin, '/search/issues?q=widget&per_page=2');
      expect(outside.status).toBe(404);
      expect(outside.headers[PROXY_HEADER]).toBe('outside-prefix');
    } finally {
      await prefixed.close();
    }
  });

  it('answers a miss with 404, the request and the nearest fixtures with what differs, and forwards nothing', async () => {
    const miss = await call(replay.url, '/search/issues?q=gadget&per_page=2');
    expect(miss.status).toBe(404);
    expect(miss.headers[PROXY_HEADER]).toBe('unmatched');
    expect(miss.body.message).toMatch(/No recorded interaction matches GET \/search\/issues/);
    expect(miss.body.request).toEqual({ method: 'GET', path: '/search/issues', query: { per_page: ['2'], q: ['gadget'] } });
    expect(miss.body.nearest[0].differences).toEqual([{ field: 'query q', recorded: 'widget', sent: 'gadget' }]);

    const stranger = await call(replay.url, '/notifications', { token: TOKENS.classicPublic });
    expect(stranger.body.nearest[0].differences).toEqual([{ field: 'identity', recorded: 'token#1', sent: expect.stringMatching(/^token#\d+$/) }]);

    const otherBody = await call(replay.url, IMPORT, { method: 'PUT', body: { ...START.body, vcs_url: 'https://svn.example.invalid/large/trunk' } });
    expect(otherBody.body.nearest[0].differences).toEqual([
      { field: 'body/vcs_url', recorded: START.body.vcs_url, sent: 'https://svn.example.invalid/large/trunk' },
    ]);
    expect(counter.count()).toBe(0);
  });

  it('synthesizes rate-limit headers, 304s and GET /rate_limit in replay', async () => {
    const session = inSession('synthesis');
    const first = await call(replay.url, '/search/issues?q=widget&per_page=2', session);
    expect(first.headers['x-ratelimit-resource']).toBe('search');
    expect(first.headers['x-ratelimit-used']).toBe('1');
    const etag = first.headers.etag!;
    const again = await call(replay.url, '/search/issues?q=widget&per_page=2', inSession('synthesis', { headers: { 'if-none-match': etag } }));
    expect(again.status).toBe(304);
    expect(again.headers['x-ratelimit-used']).toBe('1');
    const status = await call(replay.url, '/rate_limit', session);
    expect(status.status).toBe(200);
    expect(status.body.resources.search.used).toBe(1);
    expect(counter.count()).toBe(0);
  });

  it('record-missing replays what the cassette has and records only what it lacks', async () => {
    const copy = tempCassette();
    cpSync(fixtures, copy, { recursive: true });
    const reference = await startReference({ port: 0 });
    const proxy = await createProxy({ mode: 'record-missing', target: reference.url, fixtures: copy, port: 0 });
    try {
      const before = proxy.cassette!.size;
      const known = await call(proxy.url, '/search/issues?q=widget&per_page=2');
      expect(known.headers[PROXY_HEADER]).toBe('replayed');
      const fresh = await call(proxy.url, '/search/issues?q=gadget&per_page=2');
      expect(fresh.headers[PROXY_HEADER]).toBe('recorded');
      expect(fresh.status).toBe(200);
      // Recorded in this run: the same request again is recorded again, as the next in its sequence.
      expect((await call(proxy.url, '/search/issues?q=gadget&per_page=2')).headers[PROXY_HEADER]).toBe('recorded');
      expect(proxy.cassette!.size).toBe(before + 2);
      expect(proxy.stats).toMatchObject({ fixture: 1, upstream: 2, recorded: 2 });
      expect(readdirSync(copy).filter((f) => f.startsWith('get-search-issues-'))).toHaveLength(3);
    } finally {
      await proxy.close();
      await reference.close();
    }
  });
});
