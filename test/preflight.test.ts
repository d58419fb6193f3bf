/**
 * The preflight against targets set up differently: each is the reference behind a front that
 * changes one thing. A broken setup stops with one diagnosis before any check; a partial one is one
 * notice, and only the checks that depend on it are skipped (or, for the media type, fail once).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../reference/server.js';
import { referenceProfile } from '../reference/profile.js';
import { runConformance } from '../src/runner.js';
import type { CheckResult, RunResult } from '../core/model.js';
import {
  htmlBadGateway, passedOnNothing, rateLimitingOff, rateLimitingOffQuotas, refuseBearer, refuseVendorMediaType, rejectTokens, serverErrors, startAlteredReference, type AlteredReference,
} from './helpers/altered-reference.js';
import { virtualClock } from './helpers/virtual-clock.js';

const ids = (checks: CheckResult[], pick: (c: CheckResult) => boolean) => checks.filter(pick).map((c) => c.id).sort();
const failing = (r: RunResult) => ids(r.checks, (c) => c.outcome === 'fail' || c.outcome === 'warn');

// The tests of this file run concurrently (whole runs mostly wait on the target's clocks): servers close at its end.
const open: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(open.map((s) => s.close()));
});
const altered = async (...args: Parameters<typeof startAlteredReference>): Promise<AlteredReference> => {
  const front = await startAlteredReference(...args);
  open.push(front);
  return front;
};
const reference = async (prefix = '', now?: () => number): Promise<RunningReference> => {
  const ref = await startReference({ port: 0, pollIntervalSeconds: 1, prefix, ...(now ? { now } : {}) });
  open.push(ref);
  return ref;
};

describe.concurrent('a broken setup stops before any check with one diagnosis', () => {
  it('500 to everything: server-error, naming the status, no check recorded', async () => {
    const front = await altered(serverErrors);
    const r = await runConformance({ profile: front.profile });
    expect(r.stopped?.reason).toBe('server-error');
    expect(r.stopped?.message).toMatch(/answered 500 "Internal Server Error".*answered 500/);
    expect(r.checks).toEqual([]);
    expect(r.requests.total).toBeLessThan(5);
  });

  it('an HTML 502 page to everything: server-error, saying the body is not JSON', async () => {
    const front = await altered(htmlBadGateway);
    const r = await runConformance({ profile: front.profile });
    expect(r.stopped?.reason).toBe('server-error');
    expect(r.stopped?.message).toMatch(/502: body is not JSON \(.*\); starts with "<html>/);
    expect(r.checks).toEqual([]);
  });

  it('a doubled prefix: the base URL already ends in /api/v3 and --prefix adds it again; says what to pass', async () => {
    const ref = await reference('/api/v3');
    const r = await runConformance({ profile: { ...referenceProfile(ref), base_url: ref.url, prefix: '/api/v3' } });
    expect(r.stopped?.reason).toBe('wrong-api-root');
    expect(r.stopped?.message).toContain(`doubled prefix: the base URL ${ref.url} already ends in /api/v3`);
    expect(r.stopped?.message).toContain(`pass --base-url ${ref.origin} with --prefix /api/v3`);
    expect(r.checks).toEqual([]);
  });

  it('a missing prefix: says to pass --prefix /api/v3', async () => {
    const ref = await reference('/api/v3');
    const { prefix: _prefix, ...profile } = referenceProfile(ref);
    const r = await runConformance({ profile });
    expect(r.stopped?.reason).toBe('wrong-api-root');
    expect(r.stopped?.message).toMatch(/^missing prefix: .*pass --prefix \/api\/v3/);
  });

  it('a prefix the target does not serve: says to drop it; where no root answers, says the base URL is not the API root', async () => {
    const plain = await reference();
    const unserved = await runConformance({ profile: { ...referenceProfile(plain), prefix: '/v4' } });
    expect(unserved.stopped?.message).toMatch(/^wrong prefix: nothing is served below \/v4; drop the prefix \/v4/);
    const prefixed = await reference('/api/v3');
    const nowhere = await runConformance({ profile: { ...referenceProfile(prefixed), prefix: '/v4' } });
    expect(nowhere.stopped?.reason).toBe('wrong-api-root');
    expect(nowhere.stopped?.message).toContain(`${prefixed.origin}/v4 is not the API root`);
  });

  it('every token rejected with 401: credentials-rejected, naming them', async () => {
    const front = await altered(rejectTokens());
    const r = await runConformance({ profile: front.profile });
    expect(r.stopped?.reason).toBe('credentials-rejected');
    expect(r.stopped?.message).toMatch(/rejects every token of the profile with 401 \(classic, .*\)/);
    expect(r.checks).toEqual([]);
  });
});

describe.concurrent('a partial setup is one notice; only what depends on it is skipped', () => {
  it('406 to the vendor media type: the run asks for application/json, versioning.media-types fails once, text-match is skipped', async () => {
    const front = await altered(refuseVendorMediaType());
    const r = await runConformance({ profile: front.profile, allowWrites: true });
    expect(r.stopped).toBeUndefined();
    expect(r.notices).toHaveLength(1);
    expect(r.notices[0]).toMatch(/refuses the recommended media type \(Accept: application\/vnd\.service\+json\) with 406/);
    expect(failing(r)).toEqual(['versioning.media-types']);
    // Only checks that send the vendor's media types on purpose: text matches, and the media-type rule on each endpoint.
    const refused = ids(r.checks, (c) => c.skipReason === 'media-type-refused');
    expect(refused).toContain('search.text-match-indices');
    expect(refused.filter((id) => !/^(search\.text-match|versioning\.media\.)/.test(id))).toEqual([]);
    expect(r.counts.pass).toBeGreaterThan(50);
    expect(passedOnNothing(r)).toEqual([]);
  });

  it('Bearer refused, `token` accepted: the run sends `token`, auth.bearer-and-token-schemes fails once, the per-endpoint scheme checks are skipped', async () => {
    const front = await altered(refuseBearer);
    const r = await runConformance({ profile: front.profile, allowWrites: true });
    expect(r.stopped).toBeUndefined();
    expect(r.notices).toEqual([expect.stringMatching(/refuses tokens sent as "Bearer <TOKEN>" with 401 and accepts them as "token <TOKEN>"/)]);
    expect(failing(r)).toEqual(['auth.bearer-and-token-schemes']);
    const refused = ids(r.checks, (c) => c.skipReason === 'bearer-refused');
    expect(refused.length).toBeGreaterThan(10);
    expect(refused.filter((id) => !id.startsWith('auth.token-scheme.'))).toEqual([]);
    expect(r.counts.pass).toBeGreaterThan(50);
    expect(passedOnNothing(r)).toEqual([]);
  }, 300_000);

  it('rate limiting off: no check fails; the rate-limit checks are skipped naming it, the versioning checks pass', async () => {
    const front = await altered(rateLimitingOff, { quotas: rateLimitingOffQuotas });
    const r = await runConformance({ profile: front.profile, allowWrites: true });
    expect(r.stopped).toBeUndefined();
    expect(r.notices).toEqual([expect.stringMatching(/^rate limiting is off on this target: GET \/rate_limit answered 404 "Rate limiting is not enabled\." and answers carry no X-RateLimit-\* headers/)]);
    expect(failing(r)).toEqual([]);
    const skipped = r.checks.filter((c) => c.skipReason === 'rate-limiting-off');
    expect(skipped.map((c) => c.id)).toEqual(expect.arrayContaining(['rate-limit.status-categories', 'rate-limit.search-separate.search.issues', 'schema.rate-limit.get']));
    for (const c of skipped) expect(c.message).toContain('rate limiting is off');
    expect(ids(r.checks, (c) => c.suite === 'versioning' && c.outcome === 'pass')).toEqual(expect.arrayContaining(['versioning.listed-versions', 'versioning.media-types']));
    expect(passedOnNothing(r)).toEqual([]);
  });

  it('one token rejected: its checks are skipped naming it, the rest run and pass', async () => {
    const ref = await reference();
    const profile = referenceProfile(ref);
    const front = await altered(rejectTokens(profile.tokens!.org_member!.value));
    const r = await runConformance({ profile: front.profile, allowWrites: true });
    expect(r.notices).toEqual([expect.stringContaining('rejects the profile\'s token org_member with 401')]);
    expect(failing(r)).toEqual([]);
    const skipped = r.checks.filter((c) => c.skipReason === 'token-rejected');
    expect(skipped.length).toBeGreaterThan(0);
    for (const c of skipped) expect(c.message).toContain('"org_member"');
    expect(passedOnNothing(r)).toEqual([]);
  });
});

describe.concurrent('no profile (a base URL only)', () => {
  it('runs the checks that need no token, anonymously, and says once what the rest need', async () => {
    // Anonymous, the run spends the minute's search window and waits for the next: on a clock the
    // target shares, which moves only when the run sleeps, that minute passes at once.
    const { clock } = virtualClock();
    const ref = await reference('', clock.now);
    const r = await runConformance({ baseUrl: ref.url, clock });
    expect(r.stopped).toBeUndefined();
    expect(failing(r)).toEqual([]);
    expect(ids(r.checks, (c) => c.outcome === 'pass')).toEqual(expect.arrayContaining(['rate-limit.status-categories', 'schema.events.public', 'versioning.listed-versions']));
    expect(r.transcript.filter((e) => e.request.headers.authorization)).toEqual([]);
    expect(passedOnNothing(r)).toEqual([]);
    expect(r.notices).toEqual([expect.stringMatching(/^the profile names no token: \d+ checks need none; \d+ need one \(classic \(\d+\).*conformance reference --write-profile/)]);
  }, 300_000);

  it('where nothing runs without a token: stopped as nothing-checked, with the fix', async () => {
    const ref = await reference();
    const r = await runConformance({ baseUrl: ref.url, suites: ['notifications'] });
    expect(r.stopped?.reason).toBe('nothing-checked');
    expect(r.stopped?.message).toMatch(/^nothing was checked: .*skipped \(missing-token; no profile: write one with `conformance reference --write-profile <file>` as an example, see docs\/profile\.md\)/);
  });
});

describe.concurrent('a run of observations only', () => {
  it('judged no stated rule: stopped as nothing-checked, naming the observations and what to select', async () => {
    const ref = await reference();
    const r = await runConformance({ baseUrl: ref.url, grep: 'omitted' });
    expect(r.checks.map((c) => c.outcome)).toEqual(['info']);
    expect(r.stopped?.reason).toBe('nothing-checked');
    expect(r.stopped?.message).toBe('nothing was checked: no check of 1 passed or failed; 1 only observed behaviour the spec does not show (versioning.omitted-or-unknown; '
      + 'the report lists what was seen, but no stated rule was judged: select checks of stated rules too, see --list)');
  });
});

describe.concurrent('a selection of nothing', () => {
  it('is refused before anything is sent', async () => {
    await expect(runConformance({ baseUrl: 'http://127.0.0.1:9', grep: 'no-such-check-anywhere' })).rejects.toThrow('nothing to run: --grep "no-such-check-anywhere" selects no check');
  });
});
