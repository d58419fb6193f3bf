/**
 * Replay renders a fixture's answer once per proxy address and keeps it in a byte-bounded cache:
 * the bytes, ETag and 304s are those of a fresh rendering on every request, answers are rendered
 * per address, and what is kept stays within the budget however many fixtures were served.
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { Cassette } from '../../proxy/cassette.js';
import type { Interaction } from '../../proxy/interaction.js';
import { Lru } from '../../proxy/lru.js';
import { RenderedAnswers, type Rendered } from '../../proxy/rendered.js';
import { cassetteKeys, createProxy, type RunningProxy } from '../../proxy/server.js';
import { tempCassette } from './helpers.js';

const UPSTREAM = 'http://upstream.invalid/api';
const RECORDED_AT = '2025-06-01T10:00:00.000Z';

/** A cassette with one GET /items/N per body, recorded from UPSTREAM with an ETag (so replay synthesizes validators there). */
function cassetteOf(bodies: unknown[], headers: Record<string, string> = {}): string {
  const dir = tempCassette();
  const keys = cassetteKeys();
  const cassette = Cassette.open(dir, { ...keys, writable: true });
  bodies.forEach((json, i) => {
    const req = { method: 'GET', path: `/items/${i}`, query: {}, headers: { accept: 'application/json' } };
    const draft: Omit<Interaction, 'sequence'> = {
      version: 1, key: keys.keyOf(req), recordedAt: RECORDED_AT, upstream: UPSTREAM, request: req, durationMs: 1,
      response: { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', etag: `"recorded-${i}"`, ...headers }, body: { encoding: 'json', json } },
    };
    cassette.add(draft);
  });
  cassette.flush();
  return dir;
}

const proxies: RunningProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

async function replay(fixtures: string, cacheBytes?: number): Promise<RunningProxy> {
  const proxy = await createProxy({ mode: 'replay', fixtures, port: 0, ...(cacheBytes !== undefined ? { cacheBytes } : {}) });
  proxies.push(proxy);
  return proxy;
}

async function get(proxy: RunningProxy, path: string, headers: Record<string, string> = {}) {
  const res = await request(`${proxy.origin}${path}`, { headers: { accept: 'application/json', ...headers } });
  return { status: res.statusCode, headers: res.headers as Record<string, string>, body: Buffer.from(await res.body.arrayBuffer()) };
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('replayed answers, rendered once', () => {
  it('are the same bytes and ETag on every request, with the recorded addresses rewritten to the proxy', async () => {
    const proxy = await replay(cassetteOf([{ n: 0, url: `${UPSTREAM}/repos/acme/widgets`, nested: [{ html: `${UPSTREAM}x/not-a-segment` }] }],
      { link: `<${UPSTREAM}/items/0?page=2>; rel="next"` }));
    const expected = Buffer.from(JSON.stringify({ n: 0, url: `${proxy.origin}/repos/acme/widgets`, nested: [{ html: `${UPSTREAM}x/not-a-segment` }] }));
    for (let i = 0; i < 3; i++) {
      const a = await get(proxy, '/items/0');
      expect(a.status).toBe(200);
      expect(a.body.equals(expected)).toBe(true);
      expect(a.headers.etag).toBe(`"${sha256(expected)}"`);
      expect(a.headers.link).toBe(`<${proxy.origin}/items/0?page=2>; rel="next"`);
      expect(a.headers.date).toBe(new Date(RECORDED_AT).toUTCString());
      expect(a.headers['x-ratelimit-used']).toBe(String(i + 1));
    }
  });

  it('answer a conditional request with 304 when its ETag matches, and with the full answer otherwise, again and again', async () => {
    const proxy = await replay(cassetteOf([{ n: 0 }]));
    const { etag } = (await get(proxy, '/items/0')).headers;
    for (let i = 0; i < 2; i++) {
      const same = await get(proxy, '/items/0', { 'if-none-match': etag! });
      expect(same.status).toBe(304);
      expect(same.body.length).toBe(0);
      expect(same.headers.etag).toBe(etag);
      const other = await get(proxy, '/items/0', { 'if-none-match': '"something-else"' });
      expect(other.status).toBe(200);
      expect(other.body.toString()).toBe('{"n":0}');
    }
  });

  it('are rendered for the address each client used', async () => {
    const proxy = await replay(cassetteOf([{ url: `${UPSTREAM}/repos/acme/widgets` }]));
    const byIp = await get(proxy, '/items/0');
    const byName = await get(proxy, '/items/0', { host: `localhost:${proxy.port}` });
    expect(JSON.parse(byIp.body.toString())).toEqual({ url: `http://127.0.0.1:${proxy.port}/repos/acme/widgets` });
    expect(JSON.parse(byName.body.toString())).toEqual({ url: `http://localhost:${proxy.port}/repos/acme/widgets` });
    expect(byName.headers.etag).not.toBe(byIp.headers.etag);
  });

  it('are served alike after falling out of a cache too small for them all', async () => {
    // 25 fixtures twice stay within the anonymous core limit (60 an hour).
    const bodies = Array.from({ length: 25 }, (_, n) => ({ n, text: 'y'.repeat(1000) }));
    const proxy = await replay(cassetteOf(bodies), 8 * 1024);
    const first: Buffer[] = [];
    for (let pass = 0; pass < 2; pass++) {
      for (const [n, json] of bodies.entries()) {
        const a = await get(proxy, `/items/${n}`);
        expect(a.status).toBe(200);
        expect(JSON.parse(a.body.toString())).toEqual(json);
        if (pass === 0) first.push(a.body);
        else expect(a.body.equals(first[n]!)).toBe(true);
      }
    }
  });
});

describe('the cache of rendered answers', () => {
  const rendering = (n: number, bytes: number): Rendered => ({
    answer: { status: 200, headers: { 'x-n': String(n) }, body: Buffer.alloc(bytes, 'z') }, recordedAt: RECORDED_AT, durationMs: 1,
  });

  it('stays within its budget after more answers than fit were kept, and renders a dropped one again', () => {
    const budget = 20_000;
    const cache = new RenderedAnswers(budget);
    let renders = 0;
    const fetch = (n: number) => cache.get(`f${n}`, 'http://proxy', () => {
      renders++;
      return rendering(n, 1000);
    });
    for (let n = 0; n < 200; n++) {
      fetch(n);
      expect(cache.weight).toBeLessThanOrEqual(budget);
    }
    expect(renders).toBe(200);
    expect(cache.size).toBeGreaterThan(5);
    expect(cache.size).toBeLessThan(20);
    expect(fetch(199).answer.headers['x-n']).toBe('199');
    expect(renders).toBe(200);
    expect(fetch(0).answer.headers['x-n']).toBe('0');
    expect(renders).toBe(201);
  });

  it('hands out frozen answers, so no request can change what the next one gets', () => {
    const kept = new RenderedAnswers().get('f', 'http://proxy', () => rendering(1, 10)).answer;
    expect(() => {
      (kept.headers as Record<string, string>)['x-n'] = 'changed';
    }).toThrow(TypeError);
  });
});

describe('Lru', () => {
  it('drops the least recently used first, and keeps nothing heavier than its budget', () => {
    const lru = new Lru<string, number>(3, (v) => v);
    lru.set('a', 1);
    lru.set('b', 1);
    lru.set('c', 1);
    lru.get('a');
    lru.set('d', 1);
    expect(['a', 'b', 'c', 'd'].map((k) => lru.get(k))).toEqual([1, undefined, 1, 1]);
    lru.set('huge', 4);
    expect(lru.get('huge')).toBeUndefined();
    expect(lru.weight).toBe(3);
  });

  it('keeps the entry being added when every older one was used since, dropping the one used longest ago', () => {
    const lru = new Lru<string, number>(3, (v) => v);
    for (const k of ['a', 'b', 'c']) lru.set(k, 1);
    for (const k of ['a', 'b', 'c']) lru.get(k);
    lru.set('d', 1);
    expect(['a', 'b', 'c', 'd'].map((k) => lru.get(k))).toEqual([undefined, 1, 1, 1]);
    expect(lru.size).toBe(3);
  });
});
