/**
 * Byte-faithful record and replay: a server sending awkward bytes (1.0, integers past 2^53, odd
 * spacing, non-ASCII and escaped characters, gzip, bytes that are not UTF-8) is recorded, and the
 * replayed bytes equal the recorded ones, the upstream's addresses aside; its Date is kept; equivalent
 * media types find each other's fixtures; validators appear only where recorded or stated by the
 * spec; a secret in a body is masked without the rest of the bytes changing; HAR carries the bytes too.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { listen } from '../../core/listen.js';
import { createProxy, PROXY_HEADER, type RunningProxy } from '../../proxy/server.js';
import { exportHarCommand, importHarCommand } from '../../src/commands/har.js';
import { cassetteFiles, tempCassette } from './helpers.js';

const UPSTREAM_DATE = 'Wed, 01 Jan 2025 00:00:00 GMT';
// Not shaped like any platform's token: secret scanners must find nothing in the repository.
const SECRET = 'faithful-subscription-secret-0123456789';
const JSON_TYPE = 'application/json; charset=utf-8';

/** What the upstream sends per path: its body text (ROOT stands for its own API root), how, and with which headers. */
interface Sent { text: (root: string) => string | Buffer; type: string; gzip?: boolean; headers?: Record<string, string> }
const SENT: Record<string, Sent> = {
  // The platform sends no validator on search; this one sends it gzipped, with every awkwardness JSON allows.
  '/search/issues': {
    type: JSON_TYPE, gzip: true,
    text: (root) => `{ "total_count" : 1.0, "id": 12345678901234567890123, "past_2_53": 9007199254740993, "exp": 1E+2,\n\t"items" :[ {"title":"naïve café ☕ 😀","escaped":"caf\\u00e9 \\ud83d\\ude00","url":"${root}/repos/o/r/issues/1","escaped_url":"${`${root}/x`.replace(/\//g, '\\/')}","other":"${root}x/not-ours"} ],"z":1,"a":2,"1":"integer-like key last" }\n`,
  },
  // Laid out as JSON.stringify(_, null, 2) lays it out: stored as JSON a person can read and edit.
  '/events': { type: JSON_TYPE, text: (root) => `${JSON.stringify([{ id: '1', type: 'WatchEvent', repo: { url: `${root}/repos/o/r` } }], null, 2)}\n` },
  '/raw': { type: 'application/octet-stream', text: () => Buffer.from([0xff, 0x00, 0xfe, 0x41, 0xc3]) },
  '/notifications': {
    type: JSON_TYPE, headers: { 'last-modified': 'Tue, 31 Dec 2024 23:00:00 GMT' },
    text: () => `[ {"id": "1", "subscription_token" : "${SECRET}", "unread": true, "score": 2.50, "echo": "seen ${SECRET} here"} ]`,
  },
};

const bytesOf = (sent: Sent, root: string) => {
  const body = sent.text(root);
  return typeof body === 'string' ? Buffer.from(body) : body;
};

async function startUpstream(): Promise<{ root: string; close: () => Promise<void> }> {
  let root = '';
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/api\/v3/, '');
    const sent = SENT[path];
    if (!sent) return void res.writeHead(404).end();
    const bytes = bytesOf(sent, root);
    res.writeHead(200, {
      'content-type': sent.type, date: UPSTREAM_DATE, ...sent.headers,
      ...(sent.gzip ? { 'content-encoding': 'gzip' } : {}),
    });
    res.end(sent.gzip ? gzipSync(bytes) : bytes);
  });
  const { origin } = await listen(server, 0);
  root = `${origin}/api/v3`;
  return { root, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function get(base: string, path: string, headers: Record<string, string> = {}) {
  const res = await request(`${base}${path}`, { headers: { accept: 'application/vnd.github+json', authorization: 'Bearer ghp_caller0123456789', ...headers } });
  return { status: res.statusCode, headers: res.headers as Record<string, string>, body: Buffer.from(await res.body.arrayBuffer()) };
}

/** The upstream's bytes with its root, as written in JSON either way, replaced by `served` (what the proxy rewrites). */
function expected(path: string, upstream: string, served: string): Buffer {
  const bytes = bytesOf(SENT[path]!, upstream);
  if (path === '/raw') return bytes;
  const escape = (url: string) => url.replace(/\//g, '\\/');
  // Only where the root ends a segment: `${root}x` is another address.
  const text = bytes.toString().split(`${upstream}/`).join(`${served}/`).split(`${escape(upstream)}\\/`).join(`${escape(served)}\\/`);
  return Buffer.from(text);
}

const fixtureOf = (dir: string, prefix: string) => {
  const found = cassetteFiles(dir).find((f) => f.name.startsWith(prefix));
  if (!found) throw new Error(`no fixture ${prefix}*`);
  return { text: found.text, json: JSON.parse(found.text) as { response: { headers: Record<string, string>; body: Record<string, unknown>; contentEncoding?: string } } };
};

describe('faithful record and replay', () => {
  const fixtures = tempCassette();
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let replay: RunningProxy;
  const forwarded = new Map<string, Buffer>();
  let recorderUrl = '';

  beforeAll(async () => {
    upstream = await startUpstream();
    const recorder = await createProxy({ mode: 'record', target: upstream.root, fixtures, port: 0 });
    recorderUrl = recorder.url;
    for (const path of Object.keys(SENT)) forwarded.set(path, (await get(recorder.url, path)).body);
    await recorder.close();
    await upstream.close();
    replay = await createProxy({ mode: 'replay', fixtures, port: 0 });
  });
  afterAll(async () => {
    await replay.close();
  });

  it('forwards the bytes as received (decoded) while recording, addresses rewritten', () => {
    for (const path of Object.keys(SENT)) expect(forwarded.get(path)!.equals(expected(path, upstream.root, recorderUrl)), path).toBe(true);
  });

  it('replays the bytes it recorded, byte for byte, addresses rewritten to the proxy', async () => {
    for (const path of ['/search/issues', '/events', '/raw']) {
      const r = await get(replay.url, path);
      expect(r.headers[PROXY_HEADER], path).toBe('replayed');
      expect(r.body.equals(expected(path, upstream.root, replay.url)), `${path}: ${r.body.toString()}`).toBe(true);
      expect(r.headers['content-length']).toBe(String(r.body.length));
    }
  });

  it('stores JSON readable only where it reproduces the bytes, else the exact text, and notes the encoding it arrived in', () => {
    const search = fixtureOf(fixtures, 'get-search-issues-');
    expect(search.json.response.body).toEqual({ encoding: 'text', text: bytesOf(SENT['/search/issues']!, upstream.root).toString() });
    expect(search.json.response.contentEncoding).toBe('gzip');
    expect(search.json.response.headers['content-encoding']).toBeUndefined();
    const events = fixtureOf(fixtures, 'get-events-');
    expect(events.json.response.body).toMatchObject({ encoding: 'json', indent: 2, newline: true });
    expect(events.json.response.contentEncoding).toBeUndefined();
    expect(fixtureOf(fixtures, 'get-raw-').json.response.body).toEqual({ encoding: 'base64', base64: Buffer.from([0xff, 0x00, 0xfe, 0x41, 0xc3]).toString('base64') });
  });

  it('keeps the upstream\'s Date, recorded and replayed', async () => {
    expect(fixtureOf(fixtures, 'get-search-issues-').json.response.headers.date).toBe(UPSTREAM_DATE);
    expect((await get(replay.url, '/search/issues')).headers.date).toBe(UPSTREAM_DATE);
  });

  it('matches the recommended media type, its .v3 name and application/json as one', async () => {
    const recorded = expected('/search/issues', upstream.root, replay.url);
    for (const accept of ['application/vnd.github.v3+json', 'application/json', 'application/vnd.service+json; charset=utf-8', 'application/vnd.service.v3+json']) {
      const r = await get(replay.url, '/search/issues', { accept });
      expect(r.status, accept).toBe(200);
      expect(r.body.equals(recorded), accept).toBe(true);
    }
    // Another media type is another answer.
    expect((await get(replay.url, '/search/issues', { accept: 'application/vnd.github.text-match+json' })).headers[PROXY_HEADER]).toBe('unmatched');
  });

  it('synthesizes no validator where neither the recording nor the spec has one (search), and answers no 304 there', async () => {
    const r = await get(replay.url, '/search/issues');
    expect(r.headers.etag).toBeUndefined();
    expect(r.headers['last-modified']).toBeUndefined();
    expect((await get(replay.url, '/search/issues', { 'if-none-match': '*' })).status).toBe(200);
  });

  it('synthesizes the validator the spec states (events: ETag), and the recorded one (Last-Modified), with their 304s', async () => {
    const events = await get(replay.url, '/events');
    expect(events.headers.etag).toMatch(/^"[^"]+"$/);
    expect(events.headers['last-modified']).toBeUndefined();
    expect((await get(replay.url, '/events', { 'if-none-match': events.headers.etag! })).status).toBe(304);
    const notifications = await get(replay.url, '/notifications');
    expect(notifications.headers['last-modified']).toBe('Tue, 31 Dec 2024 23:00:00 GMT');
    expect((await get(replay.url, '/notifications', { 'if-modified-since': 'Tue, 31 Dec 2024 23:00:00 GMT' })).status).toBe(304);
  });

  it('masks a secret in a body on its text, keeping every other byte, and notes that it did', async () => {
    const stored = fixtureOf(fixtures, 'get-notifications-');
    expect(stored.text).not.toContain(SECRET);
    expect(stored.json.response.body).toMatchObject({ encoding: 'text', redacted: true });
    const sent = bytesOf(SENT['/notifications']!, upstream.root).toString();
    const r = await get(replay.url, '/notifications');
    expect(r.body.toString()).toBe(sent.split(SECRET).join('[REDACTED]'));
  });

  it('carries the exact bytes, the encoding and the Date through HAR export and import', async () => {
    vi.spyOn(process.stdout, 'write').mockReturnValue(true);
    const har = join(mkdtempSync(join(tmpdir(), 'har-')), 'run.har');
    const copy = tempCassette();
    try {
      exportHarCommand({ fixtures, out: har });
      importHarCommand({ har, fixtures: copy, upstream: undefined, 'redact-header': [], 'redact-field': [] });
    } finally {
      vi.restoreAllMocks();
    }
    const entry = (JSON.parse(readFileSync(har, 'utf8')) as { log: { entries: { request: { url: string }; response: { headers: { name: string; value: string }[]; content: { text: string } } }[] } })
      .log.entries.find((e) => e.request.url.includes('/search/issues'))!;
    expect(entry.response.content.text).toBe(bytesOf(SENT['/search/issues']!, upstream.root).toString());
    expect(entry.response.headers).toContainEqual({ name: 'content-encoding', value: 'gzip' });
    expect(cassetteFiles(copy).filter((f) => f.name.startsWith('get-')).map((f) => f.text).sort())
      .toEqual(cassetteFiles(fixtures).filter((f) => f.name.startsWith('get-')).map((f) => f.text).sort());
    const again = await createProxy({ mode: 'replay', fixtures: copy, port: 0 });
    try {
      for (const path of ['/search/issues', '/events', '/raw']) {
        const r = await get(again.url, path);
        expect(r.body.equals(expected(path, upstream.root, again.url)), path).toBe(true);
        expect(r.headers.date).toBe(UPSTREAM_DATE);
      }
    } finally {
      await again.close();
    }
  });
});
