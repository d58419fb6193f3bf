/** Document 1's shared conventions, exercised over HTTP: authentication, lockout, SSO, versioning, errors, rate limits. */
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../spec/limits.js';
import { API_VERSIONS } from '../../spec/vocabulary.js';
import { TOKENS, useReference } from '../helpers/reference.js';

const basic = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;

describe('authentication', () => {
  const ref = useReference();

  it('accepts both the Bearer and the token scheme', async () => {
    for (const scheme of ['Bearer', 'token']) {
      const r = await ref.get('/repos/acme/secret/events', { authorization: `${scheme} ${TOKENS.classic}` });
      expect(r.status, scheme).not.toBe(401);
    }
  });

  it('accepts Basic user:token and refuses username+password with a 4xx', async () => {
    expect((await ref.get('/rate_limit', { authorization: basic('mona', TOKENS.classic) })).status).toBe(200);
    const r = await ref.get('/rate_limit', { authorization: basic('hubot', 'hubot-password-2') });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(typeof r.body.message).toBe('string');
  });

  it('answers invalid credentials with 401', async () => {
    const r = await ref.get('/rate_limit', { token: TOKENS.invalid });
    expect(r.status).toBe(401);
    expect(r.body.message).toBeTypeOf('string');
  });

  it('answers 404 or 403 for private data without a token', async () => {
    const r = await ref.get('/repos/acme/secret/code-scanning/alerts', { token: null });
    expect([403, 404]).toContain(r.status);
  });

  it('names the needed permission in X-Accepted-Service-Permissions', async () => {
    const r = await ref.get('/repos/acme/widgets/code-scanning/alerts', { token: TOKENS.fineGrainedBare });
    expect([403, 404]).toContain(r.status);
    expect(r.headers['x-accepted-service-permissions']).toBe('security_events=read');
  });

  it('refuses other token kinds on notification endpoints (classic only)', async () => {
    for (const token of [TOKENS.fineGrained, TOKENS.appUser, TOKENS.appInstallation]) {
      const r = await ref.get('/notifications', { token });
      expect(r.status, token).toBe(403);
    }
  });

  it('answers single sign-on 403 with an X-Service-SSO URL', async () => {
    const r = await ref.get('/orgs/acme/code-scanning/alerts', { token: TOKENS.ssoUnauthorized });
    expect(r.status).toBe(403);
    const sso = r.headers['x-service-sso'] ?? '';
    expect(sso).toMatch(/url=https?:\/\/\S+/);
  });
});

describe('lockout after repeated invalid attempts', () => {
  let now = Date.UTC(2026, 10, 1);
  const ref = useReference({ now: () => now, lockout: { attempts: 3, windowMs: 10_000, lockMs: 30_000 } });

  it('gives 401 first, then 403 even with valid credentials, until the lock expires', async () => {
    expect((await ref.get('/rate_limit', { authorization: basic('locksmith', TOKENS.lockout) })).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await ref.get('/rate_limit', { authorization: basic('locksmith', 'wrong') })).status);
    expect(statuses[0]).toBe(401);
    expect(statuses.at(-1)).toBe(403);
    expect((await ref.get('/rate_limit', { authorization: basic('locksmith', TOKENS.lockout) })).status).toBe(403);
    expect((await ref.get('/rate_limit', { token: TOKENS.lockout })).status).toBe(403);
    // Other users are unaffected.
    expect((await ref.get('/rate_limit')).status).toBe(200);
    now += 31_000;
    expect((await ref.get('/rate_limit', { token: TOKENS.lockout })).status).toBe(200);
  });
});

describe('versioning and media types', () => {
  const ref = useReference();

  it('accepts both listed versions and reports the selected one', async () => {
    for (const v of API_VERSIONS) {
      const r = await ref.get('/rate_limit', { headers: { 'x-service-api-version': v } });
      expect(r.status, v).toBe(200);
      expect(r.headers['x-service-api-version-selected']).toBe(v);
    }
  });

  it('accepts the recommended and the older media type', async () => {
    for (const accept of ['application/vnd.service+json', 'application/vnd.service.v3+json']) {
      expect((await ref.get('/rate_limit', { headers: { accept } })).status, accept).toBe(200);
    }
  });

  it('refuses an unsupported version with a message (a choice: the spec does not show it)', async () => {
    const r = await ref.get('/rate_limit', { headers: { 'x-service-api-version': '1999-01-01' } });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('1999-01-01');
  });
});

describe('errors', () => {
  const ref = useReference();

  it('carry a message string', async () => {
    for (const path of ['/no/such/endpoint', '/repos/acme/nope/code-scanning/alerts']) {
      const r = await ref.get(path);
      expect(r.status, path).toBe(404);
      expect(r.body.message, path).toBeTypeOf('string');
    }
  });
});

describe('rate-limit headers', () => {
  const ref = useReference();
  const rate = (h: Record<string, string>) => ({
    limit: Number(h['x-ratelimit-limit']), remaining: Number(h['x-ratelimit-remaining']),
    used: Number(h['x-ratelimit-used']), reset: Number(h['x-ratelimit-reset']), resource: h['x-ratelimit-resource'],
  });

  it('are on every response and fall by one per counted request', async () => {
    const a = rate((await ref.get('/users/mona/events', { token: TOKENS.fineGrained })).headers);
    const b = rate((await ref.get('/no/such/path', { token: TOKENS.fineGrained })).headers);
    expect(a.resource).toBe('core');
    expect(b.remaining).toBe(a.remaining - 1);
    expect(b.used + b.remaining).toBe(b.limit);
  });

  it('count search separately from core with the spec limits', async () => {
    const before = (await ref.get('/rate_limit', { token: TOKENS.appUser })).body.resources;
    const s = rate((await ref.get('/search/issues?q=widget+is:issue', { token: TOKENS.appUser })).headers);
    expect(s.resource).toBe('search');
    expect(s.limit).toBe(LIMITS.search.perMinuteAuthenticated);
    const anon = rate((await ref.get('/search/repositories?q=widget', { token: null })).headers);
    expect(anon.limit).toBe(LIMITS.search.perMinuteAnonymous);
    const after = (await ref.get('/rate_limit', { token: TOKENS.appUser })).body.resources;
    expect(after.search.used).toBe(before.search.used + 1);
    expect(after.core.used).toBe(before.core.used);
  });

  it('do not count 304 answers', async () => {
    const first = await ref.get('/rate_limit', { token: TOKENS.classicPublic });
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^"[^"]+"$/);
    const before = await ref.get('/users/ada/events/public', { token: TOKENS.classicPublic });
    const again = await ref.get('/users/ada/events/public', { token: TOKENS.classicPublic, headers: { 'if-none-match': before.headers.etag! } });
    expect(again.status).toBe(304);
    expect(again.headers['x-ratelimit-remaining']).toBe(before.headers['x-ratelimit-remaining']);
  });
});

describe('rate-limit exhaustion', () => {
  const ref = useReference({ quotas: { core: { authenticated: { limit: 2 } } } });

  it('is answered 403 with a message', async () => {
    await ref.get('/users/mona/events');
    await ref.get('/users/mona/events');
    const r = await ref.get('/users/mona/events');
    expect(r.status).toBe(403);
    expect(r.body.message).toMatch(/rate limit/i);
    expect(r.headers['x-ratelimit-remaining']).toBe('0');
  });
});

describe('self-hosted prefix and vendor word', () => {
  const ref = useReference({ prefix: '/api/v3', vendor: 'github' });

  it('serves below /api/v3 with the vendor header names', async () => {
    expect(ref.url.endsWith('/api/v3')).toBe(true);
    const r = await ref.get('/rate_limit', { headers: { 'x-github-api-version': '2026-03-10', accept: 'application/vnd.github+json' } });
    expect(r.status).toBe(200);
    expect(r.headers['x-github-api-version-selected']).toBe('2026-03-10');
    const outside = await ref.get('/../../rate_limit');
    expect(outside.status).toBe(404);
  });
});
