/** An upstream that misbehaves (nock stands in for it): the proxy answers sanely and records only what was really answered. */
import { createServer } from 'node:net';
import { gzipSync } from 'node:zlib';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProxy, PROXY_HEADER, type RunningProxy } from '../../proxy/server.js';
import { call } from '../helpers/reference.js';
import { cassetteFiles, tempCassette } from './helpers.js';

// Test files share a worker: one that ran before this may have restored nock (turned it off).
beforeAll(() => {
  if (!nock.isActive()) nock.activate();
});

const UPSTREAM = 'http://upstream.test';
/** Short, yet long enough that a loaded machine does not time out the answers that do come. */
const IDLE_MS = 1000;

describe('a misbehaving upstream', () => {
  const fixtures = tempCassette();
  let proxy: RunningProxy;
  beforeAll(async () => {
    proxy = await createProxy({ mode: 'record', target: `${UPSTREAM}/api`, fixtures, port: 0, upstreamTimeoutMs: IDLE_MS });
  });
  afterEach(() => nock.cleanAll());
  afterAll(async () => {
    await proxy.close();
    nock.restore();
  });

  it('a connection reset becomes a 502 naming the cause, and nothing is recorded', async () => {
    const before = proxy.cassette!.size;
    nock(UPSTREAM).get('/api/reset').replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    const r = await call(proxy.url, '/reset');
    expect(r.status).toBe(502);
    expect(r.headers[PROXY_HEADER]).toBe('upstream-error');
    expect(r.body).toMatchObject({ cause: 'ECONNRESET', message: expect.stringContaining('upstream http://upstream.test failed: socket hang up') });
    expect(proxy.cassette!.size).toBe(before);
  });

  it('an upstream that does not answer in time becomes a 502 with ETIMEDOUT', async () => {
    nock(UPSTREAM).get('/api/slow').delay(IDLE_MS * 5).reply(200, {});
    const r = await call(proxy.url, '/slow');
    expect(r.status).toBe(502);
    expect(r.body).toMatchObject({ cause: 'ETIMEDOUT', message: expect.stringContaining(`did not answer within ${IDLE_MS} ms`) });
  });

  it('a body declared JSON that is not JSON is passed on and stored verbatim as text', async () => {
    nock(UPSTREAM).get('/api/garbled').reply(200, '<html>oops', { 'content-type': 'application/json' });
    const r = await call(proxy.url, '/garbled');
    expect(r.status).toBe(200);
    expect(r.text).toBe('<html>oops');
    expect(stored('get-garbled-').response.body).toEqual({ encoding: 'text', text: '<html>oops' });
  });

  it('a 500 is recorded like any answer', async () => {
    nock(UPSTREAM).get('/api/boom').reply(500, { message: 'boom' });
    const r = await call(proxy.url, '/boom');
    expect(r.status).toBe(500);
    expect(stored('get-boom-').response).toMatchObject({ status: 500, body: { encoding: 'json', json: { message: 'boom' } } });
  });

  it('a compressed answer is stored decoded and readable', async () => {
    nock(UPSTREAM).get('/api/zipped').reply(200, gzipSync(JSON.stringify({ zipped: true })), { 'content-encoding': 'gzip', 'content-type': 'application/json' });
    const r = await call(proxy.url, '/zipped');
    expect(r.body).toEqual({ zipped: true });
    expect(r.headers['content-encoding']).toBeUndefined();
    const fixture = stored('get-zipped-');
    expect(fixture.response.body).toEqual({ encoding: 'json', json: { zipped: true } });
    expect(fixture.response.headers['content-encoding']).toBeUndefined();
  });

  it('replays what was recorded, the broken body and the 500 included', async () => {
    const replay = await createProxy({ mode: 'replay', fixtures, port: 0 });
    try {
      expect((await call(replay.url, '/garbled')).text).toBe('<html>oops');
      expect((await call(replay.url, '/boom')).status).toBe(500);
      expect((await call(replay.url, '/reset')).headers[PROXY_HEADER]).toBe('unmatched');
    } finally {
      await replay.close();
    }
  });

  it('an answer cut off in the middle of its body becomes a 502 and is not recorded', async () => {
    const server = createServer((socket) => {
      socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"partial":'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const fixturesCut = tempCassette();
    const cut = await createProxy({ mode: 'record', target: `http://127.0.0.1:${(server.address() as { port: number }).port}`, fixtures: fixturesCut, port: 0 });
    try {
      const r = await call(cut.url, '/cut');
      expect(r.status).toBe(502);
      expect(r.body.message).toMatch(/closed the connection mid-answer|aborted/);
      expect(cut.cassette!.size).toBe(0);
    } finally {
      await cut.close();
      server.close();
    }
  });

  it('a refused connection becomes a 502 with ECONNREFUSED', async () => {
    const port = await freePort();
    const direct = await createProxy({ mode: 'passthrough', target: `http://127.0.0.1:${port}`, port: 0 });
    try {
      const r = await call(direct.url, '/anything');
      expect(r.status).toBe(502);
      expect(r.body.cause).toBe('ECONNREFUSED');
      expect(r.body.message).toContain(`upstream http://127.0.0.1:${port} failed`);
    } finally {
      await direct.close();
    }
  });

  it('refuses an upstream timeout that is not a positive number when created, not on every request', async () => {
    for (const upstreamTimeoutMs of [Number.NaN, -1, 0]) {
      await expect(createProxy({ mode: 'passthrough', target: UPSTREAM, port: 0, upstreamTimeoutMs })).rejects.toThrow(/upstream timeout must be a positive number of milliseconds/);
    }
  });

  /** The one fixture whose file name starts with `prefix`. */
  function stored(prefix: string) {
    const files = cassetteFiles(fixtures).filter((f) => f.name.startsWith(prefix));
    expect(files).toHaveLength(1);
    return JSON.parse(files[0]!.text);
  }
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
