/** `conformance proxy export-har` / `import-har`: a cassette survives the trip through HAR byte for byte; every HAR, even one carrying cassette metadata, is redacted on import and still matches the live requests. */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createProxy, PROXY_HEADER } from '../../proxy/server.js';
import { BUNDLED_CASSETTE } from '../../scripts/record-fixtures.js';
import { exportHarCommand, importHarCommand } from '../../src/commands/har.js';
import { UserError } from '../../core/exit-codes.js';
import { call, TOKENS } from '../helpers/reference.js';
import { cassetteFiles, tempCassette } from './helpers.js';

const exportTo = (fixtures: string, out: string) => exportHarCommand({ fixtures, out });
const importFrom = (har: string, fixtures: string, upstream?: string) => importHarCommand({
  har, fixtures, upstream, 'redact-header': [], 'redact-field': [],
});

describe('HAR commands', () => {
  beforeEach(() => { vi.spyOn(process.stdout, 'write').mockReturnValue(true); });
  afterEach(() => { vi.restoreAllMocks(); });

  it('export then import gives back the bundled cassette file for file, and its fixtures still answer the live tokens', async () => {
    const har = join(mkdtempSync(join(tmpdir(), 'har-')), 'run.har');
    const copy = tempCassette();
    exportTo(BUNDLED_CASSETTE, har);
    importFrom(har, copy);
    const original = cassetteFiles(BUNDLED_CASSETTE);
    expect(cassetteFiles(copy)).toEqual(original);
    expect(original.length).toBeGreaterThan(100);
    const proxy = await createProxy({ mode: 'replay', fixtures: copy });
    try {
      const r = await call(proxy.url, '/notifications?per_page=1', { token: TOKENS.classic });
      expect(r.status).toBe(200);
      expect(r.headers[PROXY_HEADER]).toBe('replayed');
    } finally {
      await proxy.close();
    }
  });

  it('redacts HAR from other tools, keeping the prefix out of paths, and the live request with the real token matches', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'har-'));
    // Shaped like a real platform token, assembled so secret scanners do not flag this file.
    const token = ['ghp', 'foreignSecretToken123'].join('_');
    const cookie = 'session-cookie-9f8e7d';
    const password = 'vcs-password-3c2b1a';
    const entry = (method: string, path: string, request: object, status: number, body: unknown) => ({
      startedDateTime: '2026-03-10T12:00:00.000Z', time: 4,
      request: {
        method, url: `https://ghe.example.invalid/api/v3${path}`, httpVersion: 'HTTP/1.1', cookies: [], queryString: [], headersSize: -1, bodySize: 0,
        headers: [{ name: 'Host', value: 'ghe.example.invalid' }, { name: 'Accept', value: 'application/vnd.service+json' }, { name: 'Authorization', value: `token ${token}` }, { name: 'Cookie', value: `s=${cookie}` }],
        ...request,
      },
      response: {
        status, statusText: '', httpVersion: 'HTTP/1.1', cookies: [], headersSize: -1, bodySize: -1, redirectURL: '',
        headers: [{ name: 'Content-Type', value: 'application/json' }, { name: 'Content-Encoding', value: 'gzip' }, { name: 'Date', value: 'Tue, 10 Mar 2026 12:00:00 GMT' }],
        content: { size: 0, mimeType: 'application/json', text: JSON.stringify(body) },
      },
      cache: {}, timings: { send: 0, wait: 4, receive: 0 },
    });
    const har = {
      log: {
        version: '1.2', creator: { name: 'devtools', version: '1' },
        entries: [
          entry('GET', '/notifications', {}, 200, [{ id: '1', echo: token }]),
          entry('PUT', '/repos/acme/import-target/import', { postData: { mimeType: 'application/json', text: JSON.stringify({ vcs_url: 'https://svn.example.invalid/x', vcs_password: password }) } },
            201, { status: 'detecting' }),
        ],
      },
    };
    writeFileSync(join(dir, 'devtools.har'), JSON.stringify(har));
    const fixtures = tempCassette();
    importFrom(join(dir, 'devtools.har'), fixtures, 'https://ghe.example.invalid/api/v3');
    const files = cassetteFiles(fixtures);
    for (const secret of [token, cookie, password]) expect(files.filter((f) => f.text.includes(secret)).map((f) => f.name), secret).toEqual([]);
    const get = files.find((f) => f.name.startsWith('get-notifications'))!;
    const stored = JSON.parse(get.text) as { request: { path: string; headers: Record<string, string> }; response: { headers: Record<string, string> } };
    expect(stored.request.path).toBe('/notifications');
    expect(stored.request.headers.authorization).toBe('token token#1');
    expect(stored.request.headers.host).toBeUndefined();
    expect(stored.response.headers['content-encoding']).toBeUndefined();
    const proxy = await createProxy({ mode: 'replay', fixtures });
    try {
      // Served under the prefix of --upstream, as a recording from it would be.
      expect(proxy.url).toBe(`${proxy.origin}/api/v3`);
      const r = await call(proxy.url, '/notifications', { authorization: `Bearer ${token}` });
      expect(r.status).toBe(200);
      expect(r.body).toEqual([{ id: '1', echo: 'token#1' }]);
    } finally {
      await proxy.close();
    }
  });

  it('redacts its own export again on import, so a rule added then masks the recorded values too', () => {
    const dir = mkdtempSync(join(tmpdir(), 'har-'));
    exportTo(BUNDLED_CASSETTE, join(dir, 'run.har'));
    const titled = cassetteFiles(BUNDLED_CASSETTE).filter((f) => /"title": "[^[]/.test(f.text));
    const fixtures = tempCassette();
    importHarCommand({ har: join(dir, 'run.har'), fixtures, 'redact-header': [], 'redact-field': ['title'] });
    const files = cassetteFiles(fixtures);
    expect(titled.length).toBeGreaterThan(0);
    expect(files.filter((f) => /"title": "[^[]/.test(f.text)).map((f) => f.name)).toEqual([]);
    expect(JSON.parse(files.find((f) => f.name === 'cassette.json')!.text).redactFields).toContain('title');
  });

  it('refuses a folder that is not empty and a file that is not HAR, in one line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'har-'));
    writeFileSync(join(dir, 'not.har'), '{"entries": []}');
    expect(() => importFrom(join(dir, 'not.har'), tempCassette())).toThrow(/not a HAR document/);
    expect(() => importFrom(join(dir, 'missing.har'), tempCassette())).toThrow(/cannot read/);
    const before = readdirSync(BUNDLED_CASSETTE);
    exportTo(BUNDLED_CASSETTE, join(dir, 'run.har'));
    expect(() => importFrom(join(dir, 'run.har'), BUNDLED_CASSETTE)).toThrow(UserError);
    expect(readdirSync(BUNDLED_CASSETTE)).toEqual(before);
  });
});
