/** Recording with real secrets writes none of them, and the redacted fixtures still match the live requests that made them. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshIdentityTable, Identities } from '../../proxy/identities.js';
import { ExchangeRedactor } from '../../proxy/redact.js';
import { createProxy, PROXY_HEADER, type RunningProxy } from '../../proxy/server.js';
import { startReference, type RunningReference } from '../../reference/server.js';
import { call, TOKENS, type CallOptions, type Reply } from '../helpers/reference.js';
import { cassetteFiles, tempCassette } from './helpers.js';

const VCS_PASSWORD = 'hunter2-vcs-password';
const VCS_USERNAME = 'importer-octo';
const QUERY_TOKEN = 'query-token-5f2a9c';
const BASIC_PASSWORD = 'basic-secret-7d1e';
const COOKIE = 'cookie-secret-42ab';
const API_KEY = 'api-key-secret-913c';
const NOTE = 'field-secret-6b0d';
const KEY_MATERIAL = 'MIIEpAIBAAKCAQEA3secretkeymaterial';
const PEM = `-----BEGIN RSA PRIVATE KEY-----\n${KEY_MATERIAL}\n-----END RSA PRIVATE KEY-----`;
const basic = Buffer.from(`ada:${BASIC_PASSWORD}`).toString('base64');
const SECRETS = [TOKENS.classic, TOKENS.classicPublic, VCS_PASSWORD, VCS_USERNAME, QUERY_TOKEN, BASIC_PASSWORD, basic, COOKIE, API_KEY, NOTE, KEY_MATERIAL];

/** Every kind of secret the proxy must keep out of fixtures, each sent for real. */
const SCRIPT: [string, CallOptions][] = [
  ['/repos/acme/import-target/import', {
    method: 'PUT', body: { vcs_url: 'https://svn.example.invalid/needs-auth/trunk', vcs_username: VCS_USERNAME, vcs_password: VCS_PASSWORD },
  }],
  ['/repos/acme/import-target/import', {}],
  ['/notifications', { token: TOKENS.classicPublic }],
  [`/events?per_page=1&access_token=${QUERY_TOKEN}`, { token: null }],
  ['/search/issues?q=widget', { authorization: `Basic ${basic}` }],
  ['/users/ada/events', { headers: { cookie: `session=${COOKIE}; theme=dark`, 'x-api-key': API_KEY } }],
  ['/notifications/threads/1/subscription', { method: 'PUT', body: { ignored: false, note: NOTE, comment: `key follows\n${PEM}` } }],
];

describe('redaction while recording', () => {
  const fixtures = tempCassette();
  const live: Reply[] = [];
  let reference: RunningReference;

  beforeAll(async () => {
    // With this fault the reference echoes vcs_password in the import record: the echo must be scrubbed too.
    reference = await startReference({ port: 0, faults: ['imports-password-echoed'] });
    const recorder = await createProxy({
      mode: 'record', target: reference.url, fixtures, port: 0, redactHeaders: ['X-Api-Key'], redactFields: ['note'],
    });
    for (const [path, opts] of SCRIPT) live.push(await call(recorder.url, path, opts));
    await recorder.close();
  });
  afterAll(() => reference.close());

  it('sent every secret and saw the password echoed (the test has teeth)', () => {
    expect(live.map((r) => r.headers[PROXY_HEADER])).toEqual(SCRIPT.map(() => 'recorded'));
    expect(live.some((r) => r.text.includes(VCS_PASSWORD))).toBe(true);
  });

  it('writes no secret that was sent into any file of the cassette', () => {
    const files = cassetteFiles(fixtures);
    expect(files.length).toBe(SCRIPT.length + 2);
    for (const { name, text } of files) for (const secret of SECRETS) expect(text.includes(secret), `${secret} in ${name}`).toBe(false);
  });

  it('keeps the caller apart as stable placeholders and masks named fields', () => {
    const files = cassetteFiles(fixtures).filter((f) => f.name !== 'index.json' && f.name !== 'cassette.json');
    const byName = (prefix: string) => JSON.parse(files.find((f) => f.name.startsWith(prefix))!.text);
    const put = byName('put-repos-acme-import-target-import-');
    expect(put.request.headers.authorization).toBe('Bearer token#1');
    expect(put.request.body.json).toMatchObject({ vcs_username: '[REDACTED]', vcs_password: '[REDACTED]' });
    expect(byName('get-notifications-').request.headers.authorization).toBe('Bearer token#2');
    expect(byName('get-events-').request.query.access_token).toEqual(['token#3']);
    expect(byName('get-search-issues-').request.headers.authorization).toBe('Basic token#4');
    const events = byName('get-users-ada-events-');
    expect(events.request.headers).toMatchObject({ cookie: '[REDACTED]', 'x-api-key': '[REDACTED]' });
    const subscription = byName('put-notifications-threads-1-subscription-');
    expect(subscription.request.body.json.note).toBe('[REDACTED]');
    expect(subscription.request.body.json.comment).toBe('key follows\n[REDACTED PRIVATE KEY]');
    const meta = JSON.parse(readFileSync(join(fixtures, 'cassette.json'), 'utf8'));
    expect(meta).toMatchObject({ redactHeaders: ['x-api-key'], redactFields: ['note'] });
  });

  describe('replaying with the same real secrets', () => {
    let replay: RunningProxy;
    beforeAll(async () => {
      // No redaction flags: the cassette remembers the ones it was recorded with.
      replay = await createProxy({ mode: 'replay', fixtures, port: 0 });
    });
    afterAll(() => replay.close());

    it('matches every redacted fixture to the live request that produced it', async () => {
      for (const [i, [path, opts]] of SCRIPT.entries()) {
        const r = await call(replay.url, path, opts);
        expect(r.headers[PROXY_HEADER], path).toBe('replayed');
        expect(r.status, path).toBe(live[i]!.status);
      }
    });

    it('does not match another caller or another query token; a named field is masked, so any value matches', async () => {
      expect((await call(replay.url, '/notifications', { token: TOKENS.classic })).headers[PROXY_HEADER]).toBe('unmatched');
      expect((await call(replay.url, '/events?per_page=1&access_token=another-query-token', { token: null })).headers[PROXY_HEADER]).toBe('unmatched');
      const note = { ...SCRIPT.at(-1)![1].body as object, note: 'another-note' };
      expect((await call(replay.url, '/notifications/threads/1/subscription', { method: 'PUT', body: note })).headers[PROXY_HEADER]).toBe('replayed');
    });
  });
});

describe('redaction of what the declared types hide', () => {
  const redactor = () => new ExchangeRedactor(new Identities(freshIdentityTable()), { headers: [], fields: [] });
  const put = (contentType: string, body: string) => ({
    method: 'PUT', path: '/repos/acme/import-target/import', query: new URLSearchParams(), headers: { 'content-type': contentType }, body: Buffer.from(body),
  });

  it('masks secret fields of JSON sent under another content type (curl -d declares a form), in requests and responses', () => {
    const json = JSON.stringify({ vcs_url: 'https://svn.example.invalid/x', vcs_username: VCS_USERNAME, vcs_password: VCS_PASSWORD });
    for (const type of ['application/x-www-form-urlencoded', 'text/plain']) {
      const r = redactor();
      const { request, scrub } = r.request(put(type, json));
      const response = r.response(201, { 'content-type': type }, { encoding: 'text', text: json }, scrub);
      for (const stored of [JSON.stringify(request), JSON.stringify(response)]) {
        expect(stored, type).not.toContain(VCS_PASSWORD);
        expect(stored, type).not.toContain(VCS_USERNAME);
      }
      // Keyed alike on replay: the same live request redacts to the same stored request.
      expect(redactor().request(put(type, json)).request.body).toEqual(request.body);
    }
  });

  it('leaves text without secret fields as it was sent', () => {
    const { request } = redactor().request(put('text/plain', '{ "vcs_url": "x" }'));
    expect(request.body).toEqual({ encoding: 'text', text: '{ "vcs_url": "x" }' });
  });
});

describe('credentials in the target URL', () => {
  const SECRET = 'target-password-8e3f';
  let reference: RunningReference;
  beforeAll(async () => {
    reference = await startReference({ port: 0 });
  });
  afterAll(() => reference.close());

  it('never reach a fixture, and the recorded address is still rewritten on replay', async () => {
    const fixtures = tempCassette();
    const target = reference.url.replace('http://', `http://ada:${SECRET}@`);
    const recorder = await createProxy({ mode: 'record', target, fixtures, port: 0 });
    expect((await call(recorder.url, '/search/issues?q=widget&per_page=1')).status).toBe(200);
    await recorder.close();
    for (const { name, text } of cassetteFiles(fixtures)) {
      expect(text.includes(SECRET), name).toBe(false);
      expect(text.includes('ada:'), name).toBe(false);
    }
    const replay = await createProxy({ mode: 'replay', fixtures, port: 0 });
    try {
      const r = await call(replay.url, '/search/issues?q=widget&per_page=1');
      expect(r.headers[PROXY_HEADER]).toBe('replayed');
      expect(r.text).not.toContain(`127.0.0.1:${reference.port}`);
    } finally {
      await replay.close();
    }
  });
});
