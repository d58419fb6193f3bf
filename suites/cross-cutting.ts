/**
 * The conventions that hold for every endpoint (token schemes, invalid credentials, no token, error
 * bodies, API versions, media types) or a family of them (quoted ETags, X-Poll-Interval), checked on each endpoint the profile can reach: one check per
 * (rule, endpoint), generated from the catalogue, so a report and the coverage matrix say which
 * endpoint broke which rule.
 *
 * A write is checked with a request that leaves the state as it found it (suites/requests.ts),
 * so the control and every probe, even one a broken server wrongly admits, change nothing. Left
 * out, for reasons given with the pairs in spec/coverage/exemptions.ts: writes no such request
 * exists for, the positive rules on search endpoints (four more searches per endpoint overrun the
 * one search window a run may spend), and password probes (repeated attempts of the profile's user
 * are what the stated lockout punishes: suites/lockout.ts sends them as its sacrificial user).
 */
import { CATALOGUE, type Endpoint } from '../spec/catalogue.js';
import { GOVERNS } from '../spec/coverage/governs.js';
import { API_VERSIONS } from '../spec/vocabulary.js';
import type { Reply, RequestOptions } from '../src/client.js';
import type { TokenName } from '../src/profile.js';
import { expectRefusal, judgeRefusal } from '../src/refusal.js';
import type { CheckContext, CheckSpec, Suite } from '../src/suite.js';
import { ANONYMOUS, ensureImport, reach, skipWithoutImport, type UnchangingWrite } from './requests.js';

interface Rule {
  /** Check id prefix; the endpoint id follows it. */
  prefix: string;
  requirement: string;
  title: (e: Endpoint) => string;
  /** Tokens the check needs besides the identity that reaches the endpoint. */
  tokens: TokenName[];
  /** Whether a search endpoint can afford the check: its requests must not count against the search window. */
  searchFree: boolean;
  /** Which of the endpoints the requirement governs (spec/coverage/governs.ts) it can be checked on, when not all. */
  applies?: (e: Endpoint) => boolean;
  /** The check sends the recommended media type on purpose: where the target refuses it, the preflight reports that once. */
  vendorMediaType?: boolean;
  /** `req`: the request that reaches the endpoint's success (a write's leaves the state as it found it). */
  run: (t: CheckContext, e: Endpoint, req: RequestOptions) => Promise<void>;
}

const line = (e: Endpoint, req: RequestOptions) => `${e.method} ${req.path.split('?')[0]}`;

/**
 * A search control is the schema check's own request, whose reply a whole run reuses rather than
 * spend the search window again (search results are fixed data); other endpoints' state may have
 * changed since, so their controls are sent afresh.
 */
const reuse = (e: Endpoint) => e.category === 'search';

/** The request the rule's probes vary, which must reach the endpoint's success for a probe to mean anything. */
async function control(t: CheckContext, e: Endpoint, req: RequestOptions, extra: Partial<RequestOptions> = {}): Promise<Reply | undefined> {
  const reply = await t.request({ ...req, reuse: reuse(e), ...extra });
  if (reply.status === e.success.status) return reply;
  skipWithoutImport(t, e, reply);
  t.inconclusive(`the control ${line(e, req)} answered ${reply.status}, not ${e.success.status}, so the endpoint was not reached`);
  return undefined;
}

/** A variation of the control that the rule says is accepted: it must get the same success status. */
function expectAccepted(t: CheckContext, e: Endpoint, req: RequestOptions, reply: Reply, what: string, source: string): void {
  if (reply.status === e.success.status) return;
  if (reply.status === 429 || reply.status === 503) return t.inconclusive(`${line(e, req)} with ${what} answered ${reply.status}, throttled or unavailable; try again later`);
  const m = (reply.json as { message?: unknown } | undefined)?.message;
  t.fail(`${line(e, req)} with ${what} answered ${reply.status}${typeof m === 'string' ? ` (message: ${m})` : ''}, while the same request without it answered ${e.success.status} (${source})`);
}

const RULES: readonly Rule[] = [
  {
    prefix: 'auth.token-scheme', requirement: 'auth.bearer-and-token-schemes', tokens: ['classic'], searchFree: false,
    title: (e) => `${e.method} ${e.path} accepts the token as "token <TOKEN>" as it does as "Bearer <TOKEN>"`,
    async run(t, e, req) {
      if (!(await control(t, e, req, { as: 'classic' }))) return;
      const reply = await t.request({ ...req, as: { raw: `token ${t.client.tokenValue('classic')!}` } });
      expectAccepted(t, e, req, reply, '"token <TOKEN>"', 'Authentication: both `Bearer <TOKEN>` and `token <TOKEN>` are accepted');
    },
  },
  {
    prefix: 'auth.invalid-401', requirement: 'auth.invalid-credentials-401', tokens: ['invalid'], searchFree: true,
    title: (e) => `${e.method} ${e.path} answers invalid credentials 401`,
    async run(t, e, req) {
      const reached = await t.request({ ...req, reuse: reuse(e) });
      skipWithoutImport(t, e, reached);
      await expectRefusal(t, { probe: { ...req, as: 'invalid' }, control: reached, expected: [401], what: `${line(e, req)} with an invalid token` });
    },
  },
  {
    // Public timelines (a public repository's events) are open to anyone, and notification endpoints
    // list 401, the errors table's "Requires authentication": the rule is checked where a token is required.
    prefix: 'auth.no-token', requirement: 'auth.no-token-404-or-403', tokens: [], searchFree: true, applies: (e) => e.tokens === 'token-required',
    title: (e) => `${e.method} ${e.path} answers a caller without a token 404 or 403`,
    async run(t, e, req) {
      const reached = await t.request(req);
      skipWithoutImport(t, e, reached);
      await expectRefusal(t, { probe: { ...req, as: null }, control: reached, expected: [403, 404], what: `${line(e, req)} without a token` });
    },
  },
  {
    prefix: 'errors.message', requirement: 'errors.message', tokens: ['invalid'], searchFree: true,
    title: (e) => `${e.method} ${e.path} answers an error with a message string`,
    async run(t, e, req) {
      // Invalid credentials: the one error every endpoint gives, and one no search window counts. The
      // control (the same request as the profile's caller, an earlier answer reused) shows the error is
      // the one asked for, not a refusal of everything (404 everywhere, 406 to the media type).
      const reached = await t.request({ ...req, reuse: true });
      skipWithoutImport(t, e, reached);
      const reply = await t.request({ ...req, as: 'invalid' });
      const { verdict, reason } = judgeRefusal(reply.status, reached.status);
      if (verdict !== 'refused') return t.skip('inconclusive', `${line(e, req)} with an invalid token: ${reason}`);
      const message = (reply.json as { message?: unknown } | undefined)?.message;
      if (typeof message !== 'string') t.fail(`${line(e, req)} answered ${reply.status} without a message string: ${reply.text.slice(0, 120)}`);
    },
  },
  {
    prefix: 'conditional.etag-quoted', requirement: 'cond.etag-quoted', tokens: [], searchFree: false,
    title: (e) => `${e.method} ${e.path} sends a quoted ETag`,
    async run(t, e, req) {
      // Any earlier answer of the run shows the header as well as a new one.
      const reply = await control(t, e, req, { reuse: true });
      if (!reply) return;
      const etag = reply.headers.etag;
      if (!etag) t.fail(`${line(e, req)}: no ETag header`);
      else if (!/^(W\/)?"[^"]*"$/.test(etag)) t.fail(`${line(e, req)}: ETag ${etag} is not a quoted value`);
    },
  },
  {
    prefix: 'conditional.poll-interval', requirement: 'poll.interval-header', tokens: [], searchFree: false,
    title: (e) => `${e.method} ${e.path} carries X-Poll-Interval`,
    async run(t, e, req) {
      const reply = await control(t, e, req, { reuse: true });
      if (!reply) return;
      const v = reply.headers['x-poll-interval'];
      if (v === undefined) t.fail(`${line(e, req)}: no X-Poll-Interval`);
      else if (!/^\d+$/.test(v)) t.fail(`${line(e, req)}: X-Poll-Interval "${v}" is not a number of seconds`);
    },
  },
  {
    prefix: 'versioning.versions', requirement: 'versioning.listed-versions', tokens: [], searchFree: false,
    title: (e) => `${e.method} ${e.path} accepts both listed API versions`,
    async run(t, e, req) {
      if (!(await control(t, e, req))) return;
      for (const v of API_VERSIONS) {
        const reply = await t.request({ ...req, headers: { [t.names.apiVersionHeader]: v } });
        expectAccepted(t, e, req, reply, `${t.names.apiVersionHeader}: ${v}`, `Versioning: values appearing in the interface: ${API_VERSIONS.join(' and ')}`);
      }
    },
  },
  {
    prefix: 'versioning.media', requirement: 'versioning.media-types', tokens: [], searchFree: false, vendorMediaType: true,
    title: (e) => `${e.method} ${e.path} accepts the recommended and the older media type`,
    async run(t, e, req) {
      const controlReply = await control(t, e, req);
      if (!controlReply) return;
      for (const accept of [t.names.mediaType, t.names.mediaTypeV3]) {
        // The recommended type is the client's default Accept: that request is the control's own.
        const reply = accept === t.client.accept ? controlReply : await t.request({ ...req, headers: { accept } });
        expectAccepted(t, e, req, reply, `accept: ${accept}`, 'Versioning: the recommended media type and the older form');
      }
    },
  },
];

function check(rule: Rule, e: Endpoint, how: UnchangingWrite): CheckSpec {
  const identity: TokenName[] = ANONYMOUS.has(e.id) ? [] : ['classic'];
  const tokens = [...new Set([...identity, ...rule.tokens])];
  return {
    id: `${rule.prefix}.${e.id}`,
    title: rule.title(e),
    requirement: rule.requirement,
    // A write changes nothing, yet it is a write: it runs only where writes are allowed.
    ...(e.method !== 'GET' ? { writes: true } : {}),
    needs: {
      ...(ANONYMOUS.has(e.id) ? { anonymous: true } : {}), ...(tokens.length ? { tokens } : {}), resources: how.needs,
      ...(e.path === '/rate_limit' ? { rateLimiting: true } : {}), ...(rule.vendorMediaType ? { vendorMediaType: true } : {}),
    },
    async run(t) {
      if (e.area === 'imports' && t.writesAllowed) await ensureImport(t);
      await rule.run(t, e, await how.request(t));
    },
  };
}

/** Every (rule, endpoint) check the endpoint can be reached for, search ones only where the rule costs no search. */
export const CROSS_CUTTING_CHECKS: readonly CheckSpec[] = RULES.flatMap((rule) => CATALOGUE.flatMap((e) => {
  const how = reach(e);
  const governed = GOVERNS[rule.requirement]?.endpoints.includes(e.id);
  if (!how || !governed || (e.category === 'search' && !rule.searchFree) || (rule.applies && !rule.applies(e))) return [];
  return [check(rule, e, how)];
}));

export const crossCuttingSuite: Suite = {
  name: 'cross-cutting',
  description: 'Token schemes, invalid credentials, no token, error bodies, API versions and media types, on every endpoint reached without a change.',
  checks: () => [...CROSS_CUTTING_CHECKS],
};
