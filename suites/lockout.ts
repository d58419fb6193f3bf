/**
 * Checks that spend something on purpose run last, so no other check meets the consequence:
 * the lockout (the profile's sacrificial user only) and, when opted in, the anonymous search window.
 *
 * The sacrificial user's login and password are sent to every endpoint just before the lockout (a
 * password attempt may itself count towards it: its 403 is still a 4xx), and its valid token to
 * every endpoint during the lockout, each against its answer before the lockout. Writes are those of
 * suites/requests.ts that change nothing or are put back, as the sacrificial user: its control's
 * change before the probe (`again`), a wrongly admitted probe's after it (`restore`), so the state is
 * left as found. An import endpoint is reached on an import the sacrificial user starts (journaled
 * for deletion). Preparing and putting back are no part of what a check judges (`client.unjudged`).
 */
import { CATALOGUE, matchEndpoint, type Endpoint } from '../spec/catalogue.js';
import { GOVERNS } from '../spec/coverage/governs.js';
import { LIMITS } from '../spec/limits.js';
import type { Client, Reply, RequestOptions } from '../core/client.js';
import { expectRefusal } from '../core/refusal.js';
import { areasWritten, SkipSignal, type CheckContext, type CheckSpec, type Suite } from '../core/suite.js';
import { changes, ensureImport, reachForStatus, REQUESTS, skipWithoutImport, type Identity, type UnchangingWrite } from './requests.js';

/** The request the lockout check makes with invalid and valid credentials. */
const LOCKOUT_PATH = '/notifications?per_page=1';
/** How many invalid attempts the check makes before concluding the target never locks out. */
export const LOCKOUT_ATTEMPT_BOUND = 30;
const basic = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;

/** The profile's sacrificial user, acting with its valid token; skips the check without one. */
function sacrificial(t: CheckContext): Identity {
  const user = t.profile.lockout_user;
  if (!user) return t.skip('missing-resource', 'the profile names no lockout_user (a sacrificial account)');
  return { login: user.login, as: { raw: `Bearer ${user.token}` } };
}

interface Reached {
  /** The endpoint's request as the sacrificial user (a write's changes nothing). */
  req: RequestOptions;
  /** Its answer before any invalid attempt: the control of the probes. */
  control: Reply;
}

/**
 * Per run (keyed by its client): each endpoint's request as the sacrificial user and its answer
 * before the lockout (null where it was not reached), filled by the password checks and completed by
 * the lockout check; and the runs in which the lockout was brought about. The per-endpoint checks
 * during the lockout judge against these controls, and no endpoint is requested twice to find one.
 */
const BEFORE_LOCKOUT = new WeakMap<Client, Map<string, Reached | null>>();
const LOCKED_OUT = new WeakSet<Client>();

/**
 * The endpoint's request as the sacrificial user and its answer, the control of a probe varying its
 * credentials. A search is answered by the classic token's earlier reply (search results are public
 * data; a new search would spend the one search window a run may use), any other endpoint by the
 * sacrificial user's own. An import endpoint is reached on an import, started first as the
 * sacrificial user where none is and writes are allowed. What the control changed is put back.
 */
async function reachAs(t: CheckContext, e: Endpoint, how: UnchangingWrite, who: Identity): Promise<Reached> {
  const seen = BEFORE_LOCKOUT.get(t.client) ?? new Map<string, Reached | null>();
  BEFORE_LOCKOUT.set(t.client, seen);
  seen.set(e.id, null);
  const req = await t.client.unjudged(async () => {
    if (e.area === 'imports' && t.writesAllowed) await ensureImport(t, who);
    return how.request(t, who);
  });
  const control = await t.request(e.category === 'search' ? { ...req, reuse: true } : { ...req, as: who.as, reuse: true });
  skipWithoutImport(t, e, control);
  const admitted = control.status >= 200 && control.status < 300;
  // The probes meet what the control met: its change is put back first.
  if (admitted && how.again) await t.client.unjudged(() => how.again!(t, req, who));
  if (admitted) seen.set(e.id, { req, control });
  return { req, control };
}

/**
 * Puts back, as the sacrificial user, what the check's admitted requests changed (a restarted import,
 * a probe wrongly admitted); where none was admitted there is nothing to put back.
 */
async function restore(t: CheckContext, how: UnchangingWrite, req: RequestOptions, who: Identity, sent: (Reply | undefined)[]): Promise<void> {
  if (how.restore && sent.some((r) => r && r.status < 400)) await t.client.unjudged(() => how.restore!(t, req, who));
}

/** The endpoints a rule governs that a check reaches (GETs, and writes that change nothing or are put back), each with how. */
function reachable(requirement: string): [Endpoint, UnchangingWrite][] {
  const governed = new Set(GOVERNS[requirement]?.endpoints ?? []);
  return CATALOGUE.flatMap((e) => {
    const how = reachForStatus(e);
    return how && governed.has(e.id) ? [[e, how] as [Endpoint, UnchangingWrite]] : [];
  });
}

/** The search endpoints the profile's resources reach anonymously, with the request of each. */
async function searches(t: CheckContext): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for (const e of CATALOGUE.filter((x) => x.category === 'search')) {
    const how = REQUESTS[e.id];
    if (how && how.needs.every((r) => t.resources[r] !== undefined)) out.push([e.id, await how.path(t)]);
  }
  return out;
}

interface Spent {
  /** Searches answered 200 before the first refusal. */
  admitted: number;
  /** Each endpoint's first 200 of the spending. */
  admittedBy: Map<string, Reply>;
  /** Each endpoint's answer once the window was spent: the first refusal, then one more request to every other endpoint. */
  refused: Map<string, Reply>;
}

/** Spends the anonymous search window, unpaced, taking the search endpoints in turn; at most one more search than the window holds, then one to each other endpoint. */
async function spendAnonymousWindow(t: CheckContext): Promise<Spent> {
  const all = await searches(t);
  const spent: Spent = { admitted: 0, admittedBy: new Map(), refused: new Map() };
  for (let i = 0; i <= LIMITS.search.perMinuteAnonymous && all.length && !spent.refused.size; i++) {
    const [id, path] = all[i % all.length]!;
    const r = await t.request({ path, as: null, unpaced: true });
    if (r.status !== 200) {
      spent.refused.set(id, r);
      continue;
    }
    spent.admitted += 1;
    if (!spent.admittedBy.has(id)) spent.admittedBy.set(id, r);
  }
  if (!spent.refused.size) return spent;
  for (const [id, path] of all) if (!spent.refused.has(id)) spent.refused.set(id, await t.request({ path, as: null, unpaced: true }));
  return spent;
}

/** An anonymous answer 200 of the endpoint earlier in this run (another check's search), as the control of a refusal. */
function earlierAnonymousSuccess(t: CheckContext, id: string): Reply | undefined {
  const prefix = t.profile.prefix ?? '';
  const x = [...t.client.transcript].reverse().find((r) => {
    const path = new URL(r.request.url).pathname;
    return r.response?.status === 200 && !r.request.headers.authorization
      && matchEndpoint(r.request.method, path.startsWith(prefix) ? path.slice(prefix.length) : path)?.endpoint.id === id;
  });
  return x?.response && { status: x.response.status, headers: x.response.headers, text: '', json: x.response.body, exchange: x.id };
}

/** The anonymous search window as GET /rate_limit reports it (free); skips the check where it reports none. */
async function anonymousSearchWindow(t: CheckContext): Promise<{ used: number; reset: number }> {
  const r = await t.request({ path: '/rate_limit', as: null });
  const search = (r.json as { resources?: { search?: { used?: unknown; reset?: unknown } } } | undefined)?.resources?.search;
  if (r.status !== 200 || !Number.isInteger(search?.used) || !Number.isInteger(search?.reset)) {
    return t.skip('inconclusive', `anonymous GET /rate_limit answered ${r.status} without integer resources.search.used and reset: nothing to count against`);
  }
  return { used: search!.used as number, reset: search!.reset as number };
}

/** What a per-endpoint check of the sacrificial user needs: the endpoint's resources, the classic token whose search replies are the controls, writes allowed for a write. */
function perEndpoint(e: Endpoint, how: UnchangingWrite): Pick<CheckSpec, 'needs' | 'writes' | 'mayWrite'> {
  return {
    ...changes(e),
    needs: { resources: how.needs, ...(e.category === 'search' ? { tokens: ['classic'] } : {}), ...(e.path === '/rate_limit' ? { rateLimiting: true } : {}) },
  };
}

const line = (e: Endpoint, req: RequestOptions) => `${e.method} ${req.path.split('?')[0]}`;

/** "Username and password authentication is not supported and yields a 4xx error", on each endpoint, as the sacrificial user. */
const PASSWORD_CHECKS: CheckSpec[] = reachable('auth.password-rejected').map(([e, how]) => ({
  id: `auth.password-rejected.${e.id}`, title: `${e.method} ${e.path} refuses the sacrificial user's login and password with a 4xx`, requirement: 'auth.password-rejected',
  ...perEndpoint(e, how),
  async run(t) {
    const who = sacrificial(t);
    const password = t.profile.lockout_user?.password;
    if (!password) return t.skip('missing-resource', 'the profile names no lockout_user.password');
    const { req, control } = await reachAs(t, e, how, who);
    let probe: Reply | undefined;
    try {
      // No status is stated: any 4xx (a 403 of a lockout the attempt itself brought about included).
      ({ probe } = await expectRefusal(t, { probe: { ...req, as: { raw: basic(who.login, password) } }, control, what: `${line(e, req)} with Basic ${who.login}:<password>` }));
    } finally {
      await restore(t, how, req, who, [control, probe]);
    }
  },
}));

/** During the lockout, the sacrificial user's valid token on each endpoint: 403. */
const LOCKED_OUT_CHECKS: CheckSpec[] = reachable('auth.lockout-403').map(([e, how]) => ({
  id: `auth.lockout.${e.id}`, title: `${e.method} ${e.path} refuses the locked-out user's valid token with 403`, requirement: 'auth.lockout-403',
  ...perEndpoint(e, how),
  async run(t) {
    const who = sacrificial(t);
    if (!LOCKED_OUT.has(t.client)) return t.skip('inconclusive', `no lockout of ${who.login} was brought about (see auth.lockout)`);
    const reached = BEFORE_LOCKOUT.get(t.client)?.get(e.id);
    if (!reached) return t.skip('inconclusive', `${e.method} ${e.path} was not reached as ${who.login} before the lockout (see auth.lockout)`);
    const probe = await t.request({ ...reached.req, as: who.as });
    if (probe.status < 400) {
      // Wrongly admitted: what it changed is put back (the refusal changed nothing).
      await restore(t, how, reached.req, who, [probe]);
      // "Temporarily": a lockout that has ended since is no failure of this endpoint; one the API root still shows is.
      const still = await t.request({ path: '/', as: who.as });
      if (still.status !== 403) return t.skip('inconclusive', `${line(e, reached.req)} answered ${probe.status}, but the lockout seems over: GET / answers ${still.status}, not 403`);
    }
    await expectRefusal(t, { probe, control: t.client.cite(reached.control), expected: [403], what: `${line(e, reached.req)} with valid credentials during the lockout` });
  },
}));

/** Reaches, before the lockout, each endpoint the password checks have not tried; one it cannot reach is noted, not judged. */
async function reachRest(t: CheckContext, who: Identity): Promise<void> {
  for (const [e, how] of reachable('auth.lockout-403')) {
    const { needs, writes } = perEndpoint(e, how);
    if (BEFORE_LOCKOUT.get(t.client)?.has(e.id) || (writes && !t.writesAllowed)) continue;
    if (needs?.resources?.some((r) => t.resources[r] === undefined) || (needs?.tokens && !t.client.tokenValue('classic'))) continue;
    try {
      const { req, control } = await reachAs(t, e, how, who);
      await restore(t, how, req, who, [control]);
      if (control.status < 200 || control.status > 299) t.info(`${line(e, req)} as ${who.login} answered ${control.status} before the lockout: no control`);
    } catch (err) {
      if (!(err instanceof SkipSignal)) throw err;
      t.info(`${e.id} not reached as ${who.login}: ${err.message}`);
    }
  }
}

export const lockoutSuite: Suite = {
  name: 'lockout',
  description: 'Repeated invalid attempts lock the sacrificial user out; a spent search window is refused with 403 (opt-in).',
  checks: () => [
    {
      id: 'rate-limit.search-per-minute.anonymous-window', title: 'Anonymous searches, on every search endpoint, are refused past ten a minute', requirement: 'ratelimit.search-per-minute',
      exhausts: true, needs: { rateLimiting: true },
      async run(t) {
        const before = await anonymousSearchWindow(t);
        const spent = await spendAnonymousWindow(t);
        const after = await anonymousSearchWindow(t);
        if (before.reset !== after.reset) return t.skip('inconclusive', `a new search window began while searching (reset ${before.reset}, then ${after.reset}): the count spans two`);
        // Other anonymous traffic from the same address may have spent some of it too: only more than the window holds is judged.
        const allowed = LIMITS.search.perMinuteAnonymous - before.used;
        if (spent.admitted > allowed) t.fail(`${spent.admitted} anonymous searches were answered 200 after ${before.used} of the minute's ${LIMITS.search.perMinuteAnonymous} were used`);
        const refused = [...spent.refused.keys()];
        if (refused.length) t.info(`${spent.admitted} admitted, then refused on ${refused.join(', ')}`);
      },
    },
    {
      id: 'rate-limit.exhausted-403', title: 'Past the anonymous search limit, requests to every search endpoint are refused with 403 and a message', requirement: 'ratelimit.exhausted-403',
      exhausts: true, needs: { rateLimiting: true },
      async run(t) {
        const spent = await spendAnonymousWindow(t);
        if (!spent.refused.size) return t.fail(`${LIMITS.search.perMinuteAnonymous + 1} anonymous searches within a minute were all answered 200`);
        for (const [id, r] of spent.refused) {
          // The control: the endpoint's first anonymous answer of this spending, else of this run, before the window was spent.
          const earlier = spent.admittedBy.get(id) ?? earlierAnonymousSuccess(t, id);
          if (!earlier) {
            t.inconclusive(`no anonymous search of ${id} was answered 200 in this run: nothing shows the 403 is the spent window's`);
            continue;
          }
          // A 429 here is the answer under test, not a passing throttle.
          const { verdict } = await expectRefusal(t, { probe: r, control: t.client.cite(earlier), expected: [403], transient: [], what: `anonymous ${id} past a spent window` });
          if (verdict !== 'refused') continue;
          const message = (r.json as { message?: unknown } | undefined)?.message;
          if (typeof message !== 'string') t.fail(`the 403 of ${id} carries no message`);
        }
        t.info(`refused after ${spent.admitted} anonymous searches`);
      },
    },
    ...PASSWORD_CHECKS,
    {
      id: 'auth.lockout', title: 'After several invalid attempts, valid credentials of that user are refused with 403', requirement: 'auth.lockout-403',
      // Where writes are allowed, it takes each endpoint's control before the lockout (reachRest): a write, put back, on each written one.
      mayWrite: [...new Set(reachable('auth.lockout-403').flatMap(([e]) => areasWritten(changes(e))))],
      async run(t) {
        const who = sacrificial(t);
        const valid = who.as;
        // The control of every refusal below: the same request with valid credentials, before any invalid attempt.
        const first = await t.request({ path: LOCKOUT_PATH, as: valid });
        const before = [...(BEFORE_LOCKOUT.get(t.client)?.values() ?? [])].find((r) => r !== null);
        if (first.status === 403 && before) {
          // The password attempts just before reached the user while it was not locked out: they were the invalid attempts.
          LOCKED_OUT.add(t.client);
          await expectRefusal(t, { probe: first, control: t.client.cite(before.control), expected: [403], what: 'valid credentials after the password attempts' });
          return t.info(`${who.login} was locked out by the password attempts of the password checks`);
        }
        if (first.status === 403) return t.skip('inconclusive', `${who.login} is already locked out (a recent run?); try again later`);
        if (first.status < 200 || first.status > 299) return t.skip('inconclusive', `valid credentials of ${who.login} answered ${first.status} before any invalid attempt`);
        // Each endpoint's control for the per-endpoint checks during the lockout, where the password checks found none yet.
        await reachRest(t, who);
        let attempts = 0;
        let status = 0;
        while (attempts < LOCKOUT_ATTEMPT_BOUND) {
          attempts += 1;
          const r = await t.request({ path: LOCKOUT_PATH, as: { raw: basic(who.login, `conformance-wrong-${attempts}`) } });
          status = r.status;
          if (attempts === 1) await expectRefusal(t, { probe: r, control: first, expected: [401], what: 'the first invalid attempt' });
          if (status === 403) break;
          if (status !== 401) return t.skip('inconclusive', `invalid attempt ${attempts} answered ${status}, neither 401 nor the lockout's 403`);
        }
        if (status !== 403) return t.fail(`no lockout after ${attempts} invalid attempts (the spec does not state the threshold; this check gives up at ${LOCKOUT_ATTEMPT_BOUND})`);
        t.info(`locked out after ${attempts} invalid attempts`);
        LOCKED_OUT.add(t.client);
        const after = await t.request({ path: LOCKOUT_PATH, as: valid });
        await expectRefusal(t, { probe: after, control: first, expected: [403], what: 'valid credentials during the lockout' });
      },
    },
    ...LOCKED_OUT_CHECKS,
  ],
};
