/** HAR 1.2: an export is valid against the format's schema, and importing it gives the interactions back. */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { exportHar, harCassetteMeta, importHar, type KeyOf } from '../../proxy/har.js';
import type { Interaction, RecordedRequest } from '../../proxy/interaction.js';

/** A stand-in for the match layer's key: method, path and query. */
const keyOf: KeyOf = (r: RecordedRequest) => createHash('sha256').update(JSON.stringify([r.method, r.path, r.query])).digest('hex').slice(0, 16);

function interaction(sequence: number, request: Omit<RecordedRequest, 'headers'> & { headers?: Record<string, string> }, response: Interaction['response']): Interaction {
  const req = { headers: { accept: 'application/vnd.service+json', authorization: 'token#1' }, ...request };
  return { version: 1, key: keyOf(req), sequence, recordedAt: `2026-03-10T12:00:0${sequence}.000Z`, upstream: 'http://127.0.0.1:8080/api/v3', request: req, response, durationMs: 12 + sequence };
}

const json = { 'content-type': 'application/json; charset=utf-8' };
const CASSETTE: Interaction[] = [
  interaction(0, { method: 'GET', path: '/repos/o/r/events', query: {} },
    { status: 200, headers: { ...json, 'x-poll-interval': '60' }, body: { encoding: 'json', json: [{ id: '1', type: 'WatchEvent', payload: { action: 'started' } }] } }),
  interaction(1, { method: 'GET', path: '/repos/o/r/events', query: {}, headers: { 'if-none-match': '"abc"' } }, { status: 304, headers: { etag: '"abc"' } }),
  interaction(0, { method: 'GET', path: '/search/issues', query: { label: ['a', 'b'], q: ['widget is:issue'] } },
    { status: 200, headers: json, body: { encoding: 'json', json: { total_count: 0, incomplete_results: false, items: [] } } }),
  interaction(0, { method: 'PUT', path: '/repos/o/r/import', query: {}, headers: { 'content-type': 'application/json' }, body: { encoding: 'json', json: { vcs_url: 'https://svn.example.invalid/ok/trunk', vcs_password: '<redacted>' } } },
    { status: 201, headers: json, body: { encoding: 'json', json: { status: 'detecting' } } }),
  interaction(0, { method: 'GET', path: '/networks/o/old/events', query: {} }, { status: 301, headers: { location: 'http://127.0.0.1:8080/api/v3/networks/o/new/events', 'content-type': 'text/plain' }, body: { encoding: 'text', text: 'Moved' } }),
  interaction(0, { method: 'GET', path: '/raw', query: {} }, { status: 200, headers: { 'content-type': 'application/octet-stream' }, body: { encoding: 'base64', base64: Buffer.from([0, 255, 1]).toString('base64') } }),
];

const schema = JSON.parse(readFileSync(new URL('../../schemas/har.schema.json', import.meta.url), 'utf8')) as object;
const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);

describe('HAR export', () => {
  const har = exportHar(CASSETTE);

  it('is a valid HAR 1.2 document', () => {
    expect(validate(har), JSON.stringify(validate.errors)).toBe(true);
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator.name).toBe('conformance');
    expect(har.log.entries).toHaveLength(CASSETTE.length);
  });

  it('writes the full URL, query pairs, bodies as text, status text, sizes and timings that add up to the time', () => {
    const [events, notModified, search, put, moved, raw] = har.log.entries;
    expect(events!.request.url).toBe('http://127.0.0.1:8080/api/v3/repos/o/r/events');
    expect(JSON.parse(events!.response.content.text!)).toEqual([{ id: '1', type: 'WatchEvent', payload: { action: 'started' } }]);
    expect(events!.response.content.size).toBe(Buffer.byteLength(events!.response.content.text!));
    expect(events!.response.statusText).toBe('OK');
    expect(events!.time).toBe(events!.timings.send + events!.timings.wait + events!.timings.receive);
    expect(notModified!.response.content).toEqual({ size: 0, mimeType: 'x-unknown' });
    expect(search!.request.url).toBe('http://127.0.0.1:8080/api/v3/search/issues?label=a&label=b&q=widget+is%3Aissue');
    expect(search!.request.queryString).toEqual([{ name: 'label', value: 'a' }, { name: 'label', value: 'b' }, { name: 'q', value: 'widget is:issue' }]);
    expect(put!.request.postData?.mimeType).toBe('application/json');
    expect(put!.request.bodySize).toBe(Buffer.byteLength(put!.request.postData!.text));
    expect(moved!.response.redirectURL).toBe('http://127.0.0.1:8080/api/v3/networks/o/new/events');
    expect(raw!.response.content).toMatchObject({ encoding: 'base64', size: 3 });
  });

  it('is refused by the schema when a required part is missing', () => {
    const broken = structuredClone(har) as unknown as { log: { entries: { timings?: unknown }[] } };
    delete broken.log.entries[0]!.timings;
    expect(validate(broken)).toBe(false);
  });
});

describe('HAR import', () => {
  it('gives back the exported interactions (keys through the key function, sequences in order)', () => {
    expect(importHar(JSON.parse(JSON.stringify(exportHar(CASSETTE))), keyOf)).toEqual(CASSETTE);
  });

  it('reads HAR from other tools: prefix from the given upstream, lower-case headers, no pseudo-headers, query from the URL', () => {
    const foreign = {
      log: {
        version: '1.2', creator: { name: 'browser', version: '1' },
        entries: [{
          startedDateTime: '2026-03-10T12:00:00.000Z', time: 5,
          request: { method: 'get', url: 'https://ghe.example.invalid/api/v3/search/code?q=x&per_page=1', httpVersion: 'h2', cookies: [], headers: [{ name: ':authority', value: 'ghe' }, { name: 'Accept', value: 'application/json' }], queryString: [], headersSize: -1, bodySize: 0 },
          response: { status: 200, statusText: '', httpVersion: 'h2', cookies: [], headers: [{ name: 'Content-Type', value: 'application/json' }], content: { size: 2, mimeType: 'application/json', text: '{}' }, redirectURL: '', headersSize: -1, bodySize: 2 },
          cache: {}, timings: { send: 0, wait: 5, receive: 0 },
        }],
      },
    };
    const [i] = importHar(foreign, keyOf, { upstream: 'https://ghe.example.invalid/api/v3' });
    expect(i).toMatchObject({
      upstream: 'https://ghe.example.invalid/api/v3', sequence: 0,
      request: { method: 'GET', path: '/search/code', query: { per_page: ['1'], q: ['x'] }, headers: { accept: 'application/json' } },
      response: { status: 200, headers: { 'content-type': 'application/json' }, body: { encoding: 'json', json: {} } },
    });
    expect(Object.keys(i!.request.query)).toEqual(['per_page', 'q']);
  });

  it('carries the cassette\'s identity table in a custom field, and redacts through `prepare` before keying', () => {
    const meta = { version: 1 as const, salt: 'abc', placeholders: { digest: 'token#1' }, redactHeaders: ['x-api-key'], redactFields: [] };
    const har = exportHar(CASSETTE, meta);
    expect(validate(har), JSON.stringify(validate.errors)).toBe(true);
    expect(harCassetteMeta(JSON.parse(JSON.stringify(har)))).toEqual(meta);
    expect(harCassetteMeta(exportHar(CASSETTE))).toBeUndefined();
    const masked = importHar(har, keyOf, { prepare: ({ request, response }) => ({ request: { ...request, path: '/masked' }, response }) });
    expect(masked[0]!.request.path).toBe('/masked');
    expect(masked[0]!.key).toBe(keyOf({ ...CASSETTE[0]!.request, path: '/masked' }));
  });

  it('refuses a document that is not HAR, naming a broken entry', () => {
    expect(() => importHar({ entries: [] }, keyOf)).toThrow(/not a HAR document/);
    expect(() => importHar({ log: { version: '1.2', entries: [{ request: { url: 'nope' } }] } }, keyOf)).toThrow(/HAR entry 0/);
  });
});
