/**
 * The redactor's edges against hostile input: a cut never leaves the start of a secret, a HAR
 * claiming to be our own export is redacted all the same (and our own export is left as it was),
 * nesting too deep for a recursive walk is bounded, and names decide what is masked: secret ones
 * are, ordinary ones (rate limits, request ids, validators, links) are not.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { freshIdentityTable, Identities } from '../../proxy/identities.js';
import { ExchangeRedactor } from '../../proxy/redact.js';
import { createProxy } from '../../proxy/server.js';
import { vendorNames } from '../../spec/vendor.js';
import { Client } from '../../core/client.js';
import { importHarCommand } from '../../src/commands/har.js';
import { listen } from '../../core/listen.js';
import { SecretNames, TOO_DEEP } from '../../core/redact/rules.js';
import { Redactor } from '../../core/redact/redactor.js';
import { MAX_JSON_DEPTH, nestsDeeper } from '../../core/bounds.js';
import { mapJson } from '../../core/redact/walk.js';
import { cassetteFiles, tempCassette } from '../proxy/helpers.js';
import { leakedForms, OAUTH_PATH, OWN, secret, startEchoTarget, type EchoTarget } from './echo-target.js';

const TOKEN = secret('token');
const DEPTH = 100_000;

/** A server answering every request with `body` under `type`. */
async function answering(type: string, body: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': type });
    res.end(body);
  });
  const { origin } = await listen(server);
  return { url: origin, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const clientOf = (url: string) => new Client({ profile: { base_url: url, tokens: { classic: { value: TOKEN } } }, names: vendorNames('service'), timeoutMs: 5000, maxRequests: 10 }, [TOKEN]);

describe('a cut', () => {
  // The token starts 4 characters before each place text is cut: at 60 (the not-JSON message) and at 2,000 (the transcript).
  const text = `${'a'.repeat(56)}${TOKEN}${'b'.repeat(2000 - 56 - TOKEN.length - 4)}${TOKEN}${'c'.repeat(100)}`;
  let server: Awaited<ReturnType<typeof answering>>;
  beforeAll(async () => {
    server = await answering('text/plain', text);
  });
  afterAll(() => server.close());

  it('is made after redaction, so no start of a secret survives it', async () => {
    const prefix = TOKEN.slice(0, 8);
    expect(text.slice(0, 60)).toContain(TOKEN.slice(0, 4));
    expect(text.slice(0, 2000).slice(-4)).toBe(TOKEN.slice(0, 4));
    const client = clientOf(server.url);
    const reply = await client.send({ path: '/events' });
    expect(reply.jsonError).toMatch(/^body is not JSON/);
    expect(reply.jsonError).not.toContain(TOKEN.slice(0, 4));
    const stored = JSON.stringify(client.transcript);
    expect(stored).toContain('[REDACTED]');
    expect(stored).not.toContain(prefix);
    expect(stored).not.toContain(TOKEN.slice(0, 4));
    for (const length of [60, 61, 63, 70]) {
      expect(text.slice(0, length)).toContain(TOKEN.slice(0, 4));
      expect(client.excerpt(text, length)).not.toContain(TOKEN.slice(0, 4));
    }
  });
});

describe('nesting deeper than a recursive walk survives', () => {
  const deep = `${'['.repeat(DEPTH)}"${TOKEN}"${']'.repeat(DEPTH)}`;
  let server: Awaited<ReturnType<typeof answering>>;
  beforeAll(async () => {
    server = await answering('application/json', deep);
  });
  afterAll(() => server.close());

  it('is cut off where it is too deep in the walker; the client and the proxy keep it as redacted text, never walked', async () => {
    expect(JSON.stringify(mapJson(JSON.parse(deep), (s) => s))).toContain(TOO_DEEP);
    const client = clientOf(server.url);
    const reply = await client.send({ path: '/events' });
    expect(reply.jsonError).toMatch(/deeper than 512 levels/);
    const stored = JSON.stringify(client.transcript);
    expect(stored).not.toContain(TOKEN);
    const fixtures = tempCassette();
    const proxy = await createProxy({ mode: 'record', target: server.url, fixtures, port: 0 });
    try {
      await fetch(`${proxy.url}/events`, { headers: { authorization: `Bearer ${TOKEN}` } }).then((r) => r.arrayBuffer());
    } finally {
      await proxy.close();
    }
    const recorded = cassetteFiles(fixtures).filter((f) => f.name.startsWith('get-events'));
    expect(recorded).toHaveLength(1);
    expect(recorded[0]!.text).not.toContain(TOKEN);
  }, 30_000);
});

describe('the client against an OAuth token endpoint', () => {
  let target: EchoTarget;
  beforeAll(async () => {
    target = await startEchoTarget();
  });
  afterAll(() => target.close());

  it('masks the secret pairs of a form answer and the secret fields it sent', async () => {
    const sent = { client_id: 'app-id', client_secret: secret('client-secret'), code: 'x', password: secret('password') };
    const client = clientOf(target.url);
    const reply = await client.send({ method: 'POST', path: OAUTH_PATH, body: sent });
    expect(reply.text).toContain(OWN.formToken);
    const stored = JSON.stringify(client.transcript);
    for (const s of [sent.client_secret, sent.password, OWN.formToken, OWN.formCode, OWN.refreshToken, TOKEN]) for (const f of leakedForms(s)) expect(stored).not.toContain(f);
    expect(stored).toContain('token_type=bearer');
    expect(stored).toContain('"client_id":"app-id"');
  });
});

describe('a HAR carrying cassette metadata', () => {
  beforeEach(() => { vi.spyOn(process.stdout, 'write').mockReturnValue(true); });
  afterEach(() => { vi.restoreAllMocks(); });

  it('is redacted on import all the same', () => {
    const dir = mkdtempSync(join(tmpdir(), 'crafted-har-'));
    const password = secret('vcs-password');
    const har = {
      log: {
        version: '1.2', creator: { name: 'conformance', version: '0' },
        _cassette: { version: 1, ...freshIdentityTable(), redactHeaders: [], redactFields: [] },
        entries: [{
          startedDateTime: '2026-03-10T12:00:00.000Z', time: 3, _upstream: 'http://127.0.0.1:9',
          request: {
            method: 'PUT', url: `http://127.0.0.1:9/repos/o/r/import?access_token=${encodeURIComponent(TOKEN)}`, httpVersion: 'HTTP/1.1', cookies: [], queryString: [], headersSize: -1, bodySize: 0,
            headers: [{ name: 'Authorization', value: `Bearer ${TOKEN}` }, { name: 'X-Api-Key', value: OWN.apiKey }],
            postData: { mimeType: 'application/json', text: JSON.stringify({ vcs_url: 'https://svn.example.invalid/x', vcs_password: password }) },
          },
          response: {
            status: 201, statusText: 'Created', httpVersion: 'HTTP/1.1', cookies: [], headersSize: -1, bodySize: -1, redirectURL: '',
            headers: [{ name: 'Content-Type', value: 'application/json' }, { name: 'Location', value: `https://x.example.invalid/?token=${encodeURIComponent(TOKEN)}` }],
            content: { size: 0, mimeType: 'application/json', text: JSON.stringify({ echo: Buffer.from(TOKEN).toString('base64'), refresh_token: OWN.refreshToken, password }) },
          },
          cache: {}, timings: { send: 0, wait: 3, receive: 0 },
        }],
      },
    };
    writeFileSync(join(dir, 'crafted.har'), JSON.stringify(har));
    const fixtures = tempCassette();
    importHarCommand({ har: join(dir, 'crafted.har'), fixtures, 'redact-header': [], 'redact-field': [] });
    const files = cassetteFiles(fixtures);
    expect(files.length).toBe(3);
    const found = files.flatMap((f) => [TOKEN, password, OWN.apiKey, OWN.refreshToken].flatMap(leakedForms).filter((s) => f.text.includes(s)).map((s) => `${s} in ${f.name}`));
    expect(found).toEqual([]);
  });
});

describe('redacting what is redacted already', () => {
  it('changes nothing: placeholders and masks stay as they are', () => {
    const redactor = new ExchangeRedactor(new Identities(freshIdentityTable()), { headers: [], fields: [] });
    const live = {
      method: 'POST', path: '/login', query: new URLSearchParams({ access_token: TOKEN, page: '2' }),
      headers: { authorization: `Basic ${Buffer.from(`ada:${TOKEN}`).toString('base64')}`, 'x-api-key': OWN.apiKey, 'content-type': 'application/x-www-form-urlencoded' },
      body: Buffer.from(`client_secret=${encodeURIComponent(TOKEN)}&code=abc&state=kept`),
    };
    const once = redactor.request(live).request;
    const again = redactor.request({
      method: once.method, path: once.path, query: new URLSearchParams(Object.entries(once.query).flatMap(([k, vs]) => vs.map((v) => [k, v]))),
      headers: once.headers, body: Buffer.from(once.body?.encoding === 'text' ? once.body.text : ''),
    }).request;
    expect(JSON.stringify(once)).not.toContain(TOKEN);
    expect(once.body).toEqual({ encoding: 'text', text: 'client_secret=[REDACTED]&code=[REDACTED]&state=kept' });
    expect(again).toEqual(once);
  });
});

describe('a JSON body', () => {
  it('with nothing to redact is passed on as it is; with a secret anywhere (a field, a string, past the depth bound) it is copied, the original untouched', () => {
    const redactor = new Redactor(undefined, [TOKEN]);
    const clean = { items: [{ login: 'mona', url: 'https://x.invalid/users/mona', score: 1, tags: ['a', null] }], total_count: 1 };
    expect(redactor.json(clean)).toBe(clean);
    const secrets = [
      { items: [{ login: 'mona', token: 'anything at all' }] },
      { items: [{ login: 'mona', note: `echoed ${TOKEN}` }] },
      { items: [[`${TOKEN}`]] },
      `${TOKEN}`,
    ];
    for (const body of secrets) {
      const before = JSON.stringify(body);
      const out = redactor.json(body);
      expect(out).not.toBe(body);
      expect(JSON.stringify(out)).not.toContain(TOKEN);
      expect(JSON.stringify(body)).toBe(before);
    }
    const deep = mapJson(JSON.parse(`${'['.repeat(5)}1${']'.repeat(5)}`), (t) => t, () => false, 3);
    expect(JSON.stringify(deep)).toContain(JSON.stringify(TOO_DEEP));
  });
});

describe('names', () => {
  const names = new SecretNames();

  it('mask the credential headers of common APIs, and leave the ordinary ones readable', () => {
    const secret = ['Authorization', 'Proxy-Authorization', 'Cookie', 'Set-Cookie', 'X-Api-Key', 'Api-Key', 'apikey', 'Private-Token', 'X-Auth-Token', 'X-GitHub-OTP', 'X-CSRF-Token', 'X-Session-Id'];
    const ordinary = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-ratelimit-used', 'x-ratelimit-resource', 'x-github-request-id', 'etag', 'link', 'location',
      'x-oauth-scopes', 'x-accepted-oauth-scopes', 'www-authenticate', 'x-poll-interval', 'content-type', 'x-github-sso', 'x-github-api-version-selected', 'x-accepted-github-permissions',
      // The run's own session id on a replaying proxy: a sequence, not a caller.
      'x-conformance-session'];
    expect(secret.filter((h) => !names.header(h))).toEqual([]);
    expect(ordinary.filter((h) => names.header(h))).toEqual([]);
  });

  it('mask secret fields in any spelling; `code` only in forms and query strings, where OAuth sends it', () => {
    const secret = ['access_token', 'refresh_token', 'id_token', 'token', 'secret', 'client_secret', 'apiKey', 'api_key', 'password', 'vcs_password', 'private_key', 'PRIVATE-TOKEN'];
    const ordinary = ['secret_scanning', 'tokens_url', 'keys_url', 'token_type', 'key', 'state', 'message', 'documentation_url'];
    expect(secret.filter((f) => !names.field(f) || !names.pair(f))).toEqual([]);
    expect(ordinary.filter((f) => names.field(f) || names.pair(f))).toEqual([]);
    expect([names.field('code'), names.pair('code')]).toEqual([false, true]);
  });
});

describe('a text redacted before a secret was learned', () => {
  it('is redacted afresh once the secret is known: remembered answers do not outlive what the redactor knows', () => {
    const redactor = new Redactor();
    const url = 'https://api.test/items?page=2&note=plain-secret-value-9';
    expect(redactor.json({ url })).toEqual({ url });
    redactor.learn('plain-secret-value-9');
    expect(redactor.json({ url })).toEqual({ url: 'https://api.test/items?page=2&note=[REDACTED]' });
    // A secret met inside a text (a token in the platform's shape) is learned there, and masked in every text after it.
    const token = `ghp_${'A1b2'.repeat(9)}`;
    const echo = Buffer.from(token).toString('base64');
    expect(redactor.strings([echo])).toEqual([echo]);
    expect(redactor.json({ sent: `sent ${token}` })).toEqual({ sent: 'sent [REDACTED]' });
    expect(redactor.strings([echo, { again: echo }])).toEqual(['[REDACTED]', { again: '[REDACTED]' }]);
  });

  it('in a JSON body is masked by the field name that says it is secret, however often the keys repeat', () => {
    const redactor = new Redactor();
    const items = Array.from({ length: 3 }, (_, i) => ({ id: i, name: 'x', client_secret: `secret-number-${i}-long` }));
    expect(redactor.json(items)).toEqual(items.map((x) => ({ ...x, client_secret: '[REDACTED]' })));
    expect(redactor.text('echo of secret-number-2-long')).toBe('echo of [REDACTED]');
  });
});

describe('nesting', () => {
  it('is judged by depth, not by how many brackets a body has', () => {
    const wide = Array.from({ length: MAX_JSON_DEPTH * 2 }, () => ({ a: [1] }));
    expect(nestsDeeper(wide)).toBe(false);
    const deep = `${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`;
    expect(nestsDeeper(JSON.parse(deep))).toBe(true);
    expect(nestsDeeper(JSON.parse(deep.slice(1, -1)))).toBe(false);
    // Objects count as arrays do, wherever the deep branch is; brackets inside strings do not count.
    const branch = JSON.parse(`{"a":1,"b":[{"c":${'{"d":'.repeat(MAX_JSON_DEPTH - 2)}null${'}'.repeat(MAX_JSON_DEPTH - 2)}}]}`);
    expect(nestsDeeper(branch)).toBe(true);
    expect(nestsDeeper({ s: `\\"${'['.repeat(MAX_JSON_DEPTH * 2)}` })).toBe(false);
    expect(nestsDeeper('[[[')).toBe(false);
  });
});
