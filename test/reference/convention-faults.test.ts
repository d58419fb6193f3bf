/**
 * Each fault of the shared conventions and of /rate_limit breaks its rule: the probe holds against the correct
 * reference and fails against a reference started with that fault alone.
 */
import { LIMITS, RATE_CATEGORIES } from '../../spec/limits.js';
import { call, TOKENS, type Reply } from '../helpers/reference.js';
import { describeFaultProbes, type Probe } from '../helpers/faults.js';

const basic = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;
const remaining = (r: Reply) => Number(r.headers['x-ratelimit-remaining']);

/** Whether invalid attempts lock the user out, valid token included. */
const lockedOut: Probe = async (b) => {
  for (let i = 0; i < 20; i++) await call(b, '/rate_limit', { authorization: basic('locksmith', 'wrong') });
  return (await call(b, '/rate_limit', { token: TOKENS.lockout })).status === 403;
};

const PROBES: Record<string, Probe> = {
  'auth-token-scheme-refused': async (b) => (await call(b, '/rate_limit', { authorization: `token ${TOKENS.classic}` })).status === 200,
  'auth-bearer-scheme-refused': async (b) => (await call(b, '/rate_limit', { authorization: `Bearer ${TOKENS.classic}` })).status === 200,
  'auth-invalid-as-anonymous': async (b) => (await call(b, '/rate_limit', { authorization: 'Bearer not-a-token' })).status === 401,
  'auth-password-accepted': async (b) => {
    const s = (await call(b, '/rate_limit', { authorization: basic('mona', 'mona-password-1') })).status;
    return s >= 400 && s < 500;
  },
  'auth-invalid-403-first': async (b) => (await call(b, '/rate_limit', { token: TOKENS.invalid })).status === 401,
  'auth-no-lockout': lockedOut,
  'auth-lockout-spares-valid-token': lockedOut,
  'auth-no-accepted-permissions': async (b) =>
    (await call(b, '/repos/acme/widgets/code-scanning/alerts', { token: TOKENS.fineGrainedBare })).headers['x-accepted-service-permissions'] === 'security_events=read',
  'auth-sso-no-header': async (b) => {
    const r = await call(b, '/orgs/acme/code-scanning/alerts', { token: TOKENS.ssoUnauthorized });
    return r.status === 403 && /url=http/.test(r.headers['x-service-sso'] ?? '');
  },
  'auth-sso-unenforced': async (b) => (await call(b, '/orgs/acme/code-scanning/alerts', { token: TOKENS.ssoUnauthorized })).status === 403,
  'cond-etag-unstable': async (b) => (await call(b, '/repos/acme/widgets/events')).headers.etag === (await call(b, '/repos/acme/widgets/events')).headers.etag,
  'auth-private-repo-open': async (b) => (await call(b, '/repos/acme/secret/events', { token: null })).status === 404,
  'auth-no-token-admitted': async (b) => [403, 404].includes((await call(b, '/orgs/acme/code-scanning/alerts', { token: null })).status),
  'timestamps-with-milliseconds': async (b) => {
    const threads = (await call(b, '/notifications')).body as { updated_at: string }[];
    return threads.length > 0 && threads.every((t) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(t.updated_at));
  },
  'values-url-fields-objects': async (b) => {
    const [thread] = (await call(b, '/notifications')).body as { url: unknown; subscription_url: unknown }[];
    return typeof thread?.subscription_url === 'string';
  },
  'notifications-any-token': async (b) => (await call(b, '/notifications', { token: TOKENS.fineGrained })).status === 403,
  'errors-no-message': async (b) => typeof (await call(b, '/no/such/path')).body?.message === 'string',
  'versioning-old-version-refused': async (b) => (await call(b, '/rate_limit', { headers: { 'x-service-api-version': '2022-11-28' } })).status === 200,
  'versioning-new-version-refused': async (b) => (await call(b, '/rate_limit', { headers: { 'x-service-api-version': '2026-03-10' } })).status === 200,
  'versioning-v3-media-refused': async (b) => (await call(b, '/rate_limit', { headers: { accept: 'application/vnd.service.v3+json' } })).status === 200,
  'ratelimit-endpoint-counted': async (b) => {
    const a = await call(b, '/rate_limit');
    const c = await call(b, '/rate_limit');
    return c.body.resources.core.used === a.body.resources.core.used;
  },
  'ratelimit-missing-category': async (b) => {
    const resources = (await call(b, '/rate_limit')).body.resources;
    return RATE_CATEGORIES.every((c) => c in resources);
  },
  'ratelimit-reset-in-ms': async (b) => {
    const reset = (await call(b, '/rate_limit')).body.resources.core.reset as number;
    return Math.abs(reset - Date.now() / 1000) < 2 * 3600;
  },
  'ratelimit-rate-differs': async (b) => {
    const r = (await call(b, '/rate_limit')).body;
    return JSON.stringify(r.rate) === JSON.stringify(r.resources.core);
  },
  'ratelimit-search-shares-core': async (b) => (await call(b, '/search/repositories?q=widget')).headers['x-ratelimit-resource'] === 'search',
  'ratelimit-anonymous-search-limit-30': async (b) => {
    let last: Reply | undefined;
    for (let i = 0; i <= LIMITS.search.perMinuteAnonymous; i++) last = await call(b, '/search/repositories?q=widget', { token: null });
    return last!.status === 403;
  },
  'ratelimit-search-limit-60': async (b) => {
    let last: Reply | undefined;
    for (let i = 0; i <= LIMITS.search.perMinuteAuthenticated; i++) last = await call(b, '/search/repositories?q=widget');
    return last!.status === 403;
  },
  'ratelimit-304-counted': async (b) => {
    const again = await call(b, '/users/mona/events');
    const notModified = await call(b, '/users/mona/events', { headers: { 'if-none-match': again.headers.etag! } });
    return notModified.status === 304 && remaining(notModified) === remaining(again);
  },
  'ratelimit-exhausted-429': async (b) => {
    let last: Reply | undefined;
    for (let i = 0; i <= LIMITS.search.perMinuteAnonymous; i++) last = await call(b, '/search/repositories?q=widget', { token: null });
    return last!.status === 403 && typeof last!.body.message === 'string';
  },
  'cond-etag-unquoted': async (b) => /^"[^"]+"$/.test((await call(b, '/users/mona/events')).headers.etag ?? ''),
  'cond-if-none-match-ignored': async (b) => {
    const r = await call(b, '/users/mona/events');
    return (await call(b, '/users/mona/events', { headers: { 'if-none-match': r.headers.etag! } })).status === 304;
  },
  'cond-if-modified-since-ignored': async (b) => {
    const r = await call(b, '/notifications');
    const lm = r.headers['last-modified'];
    return lm !== undefined && (await call(b, '/notifications', { headers: { 'if-modified-since': lm } })).status === 304;
  },
  'errors-401-no-message': async (b) => typeof (await call(b, '/events', { token: TOKENS.invalid })).body?.message === 'string',
  'errors-403-no-message': async (b) => {
    const r = await call(b, '/orgs/acme/code-scanning/alerts', { token: TOKENS.ssoUnauthorized });
    return r.status === 403 && typeof r.body?.message === 'string';
  },
  'ratelimit-basic-counted-anonymous': async (b) => (await call(b, '/rate_limit', { authorization: basic('mona', TOKENS.classic) })).body.resources.search.limit === 30,
  'ratelimit-oauth-counted-anonymous': async (b) => (await call(b, '/rate_limit', { token: TOKENS.oauth })).body.resources.search.limit === 30,
  'ratelimit-client-secret-counted-anonymous': async (b) => (await call(b, '/rate_limit', { authorization: basic('Iv1.refclient0001', 'ref-client-secret') })).body.resources.search.limit === 30,
  'auth-password-anonymous': async (b) => (await call(b, '/events', { authorization: basic('mona', 'mona-password-1') })).status === 401,
  'rate-limit-get-if-none-match-ignored': async (b) => {
    const r = await call(b, '/rate_limit');
    return (await call(b, '/rate_limit', { headers: { 'if-none-match': r.headers.etag! } })).status === 304;
  },
  'ratelimit-events-not-counted': async (b) => {
    const used = async () => (await call(b, '/rate_limit')).body.resources.core.used as number;
    const before = await used();
    await call(b, '/events');
    return (await used()) === before + 1;
  },
  'ratelimit-core-not-counted': async (b) => {
    const used = async () => (await call(b, '/rate_limit')).body.resources.core.used as number;
    const before = await used();
    await call(b, '/notifications');
    return (await used()) === before + 1;
  },
  'ratelimit-anonymous-core-equal': async (b) => {
    const limit = async (token?: null) => (await call(b, '/rate_limit', { token })).body.resources.core.limit as number;
    return (await limit()) > (await limit(null));
  },
  'auth-invalid-token-anonymous': async (b) => (await call(b, '/events', { token: TOKENS.invalid })).status === 401,
  'ratelimit-app-token-refused': async (b) => (await call(b, '/rate_limit', { token: TOKENS.appInstallation })).status === 200,
};

describeFaultProbes('convention faults', PROBES);

// A clock two seconds further on at every reading, so a Last-Modified taken from the time of answering moves between two requests.
const ticking = (): (() => number) => {
  let t = Date.UTC(2026, 0, 1);
  return () => (t += 2000);
};
describeFaultProbes('convention faults on a ticking clock', {
  'cond-last-modified-now': async (b) => {
    const first = await call(b, '/notifications');
    return (await call(b, '/notifications', { headers: { 'if-modified-since': first.headers['last-modified']! } })).status === 304;
  },
}, { now: ticking() });
