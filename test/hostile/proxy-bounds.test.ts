/**
 * The proxy against a hostile upstream and a client that leaves: an upstream answer is read within a
 * size (as sent and as decoded), a whole time and the client's patience, and a request body within
 * the size; each bound answers naming itself, and the upstream connection is closed at once.
 */
import { request as httpRequest } from 'node:http';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxy, PROXY_HEADER, type RunningProxy } from '../../proxy/server.js';
import { call } from '../helpers/reference.js';
import { cassetteFiles, tempCassette } from '../proxy/helpers.js';
import { MB } from '../../core/bounds.js';
import { deepJson, endless, GZIP_BOMB_BYTES, gzipBomb, hostileServer, trickle, within, type Hostile } from './helpers.js';

const TOTAL_MS = 1500;
/** Far more than the proxy may hold while decoding the bomb, far less than the bomb's decoded size. */
const MEMORY_BOUND = 150 * MB;

let upstream: Hostile;
/** Resolved when the upstream has the request the client will leave. */
let holding: () => void = () => undefined;
const fixtures = tempCassette();
let proxy: RunningProxy;
/** Forwarding without recording, giving the upstream only TOTAL_MS for a whole answer. */
let hasty: RunningProxy;
beforeAll(async () => {
  upstream = await hostileServer((req, res) => {
    switch (req.url) {
      case '/bomb': return res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipBomb());
      case '/endless': return endless(res);
      case '/trickle': return trickle(res, 200);
      case '/hold':
        res.writeHead(200, { 'content-type': 'application/json' }).write('[');
        return holding();
      case '/deep': return res.writeHead(200, { 'content-type': 'application/json' }).end(deepJson(100_000));
      default: return res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    }
  });
  const limits = { maxBodyBytes: 2 * MB, upstreamTimeoutMs: 20_000 };
  proxy = await createProxy({ mode: 'record', target: upstream.url, fixtures, port: 0, ...limits });
  hasty = await createProxy({ mode: 'passthrough', target: upstream.url, port: 0, ...limits, upstreamTotalTimeoutMs: TOTAL_MS });
});
afterAll(async () => {
  await Promise.all([proxy?.close(), hasty?.close()]);
  await upstream?.close();
});

/** The proxy's 502 for `path`, checked to be its own, and that the upstream's answer was closed soon after. */
async function refused(via: RunningProxy, path: string) {
  const sent = upstream.closed.length;
  const r = await within(call(via.url, path), 10_000, `the proxy's answer to ${path}`);
  expect(r.status).toBe(502);
  expect(r.headers[PROXY_HEADER]).toBe('upstream-error');
  await within(upstream.closed[sent]!, 5_000, `the upstream's answer to ${path} closing`);
  return r.body as { message: string; cause: string };
}

describe('an upstream answer over the body limit', () => {
  it(`a gzip bomb (${GZIP_BOMB_BYTES / MB} MB of zeros) is a 502 naming the limit, decoded no further than it`, async () => {
    gzipBomb();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 5);
    try {
      const body = await refused(proxy, '/bomb');
      expect(body).toEqual({ message: `upstream ${upstream.url} sent a body larger than the limit of 2 MB (--max-body)`, cause: 'EBODYLIMIT' });
    } finally {
      clearInterval(sampler);
    }
    expect(Math.max(peak, process.memoryUsage().rss) - before).toBeLessThan(MEMORY_BOUND);
    expect(cassetteFiles(fixtures).some((f) => f.name.startsWith('get-bomb-'))).toBe(false);
  });

  it('an endless body is a 502 naming the limit', async () => {
    expect((await refused(proxy, '/endless')).message).toBe(`upstream ${upstream.url} sent a body larger than the limit of 2 MB (--max-body)`);
  });
});

describe('an upstream trickling a byte at a time', () => {
  it('is a 502 at the total time limit, though it is never silent', async () => {
    expect(await refused(hasty, '/trickle')).toEqual({ message: `upstream ${upstream.url} gave no complete answer within ${TOTAL_MS} ms`, cause: 'ETIMEDOUT' });
  });
});

describe('a client that leaves before its answer', () => {
  it('ends the upstream exchange: the upstream sees its answer closed long before any timeout', async () => {
    const sent = upstream.closed.length;
    const held = new Promise<void>((resolve) => { holding = resolve; });
    const req = httpRequest(`${proxy.url}/hold`).on('error', () => undefined);
    req.end();
    await within(held, 5_000, 'the upstream receiving the request');
    req.destroy();
    await within(upstream.closed[sent]!, 5_000, "the upstream's answer closing after the client left");
  });
});

describe('a request body over the limit', () => {
  it('is refused with 413 naming the limit, and not forwarded', async () => {
    const sent = upstream.closed.length;
    const r = await request(`${proxy.url}/upload`, { method: 'POST', body: Buffer.alloc(2 * MB + 1, 'a'), headers: { 'content-type': 'text/plain' } });
    expect(r.statusCode).toBe(413);
    expect(await r.body.json()).toEqual({ message: 'Request body larger than the limit of 2 MB (--max-body)' });
    expect(upstream.closed.length).toBe(sent);
  });
});

describe('a JSON answer nested deeper than the depth limit', () => {
  it('is passed on verbatim as text, not walked (no stack overflow)', async () => {
    const r = await call(hasty.url, '/deep');
    expect(r.status).toBe(200);
    expect(r.text).toBe(deepJson(100_000));
  });
});
