/**
 * Sensitivity, proven: the whole run passes the correct reference; every named fault is caught
 * (fail, or warn for unshown nullability) by the per-group files in test/suites/faults/.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { FAULT_GROUPS, FAULTS, KNOWN_ESCAPES } from '../../reference/faults.js';
import { LIMITS } from '../../spec/limits.js';
import { referenceProfile } from '../../reference/profile.js';
import { startReference } from '../../reference/server.js';
import { matchEndpoint } from '../../spec/catalogue.js';
import { packagePath } from '../../core/paths.js';
import { PUBLIC_PROBE, RATE_PROBE } from '../../core/preflight.js';
import { planChecks, runConformance } from '../../src/runner.js';
import { call } from '../helpers/reference.js';
import { wholeRun } from '../helpers/whole-run.js';

describe.concurrent('the whole run against the correct reference', () => {
  it('has no failure and no warning, and stays within one window of the search limit', async () => {
    const r = await wholeRun();
    const bad = r.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'warn').map((c) => `${c.id}: ${c.message}`);
    expect(bad).toEqual([]);
    expect(r.counts.pass).toBeGreaterThan(50);
    // Search windows are per caller ("30" a minute per user, "10" anonymous); the run stays within one of each.
    // A search refused before it runs (invalid credentials: 401) is counted against core, not search.
    const searches = r.transcript.filter((e) => new URL(e.request.url).pathname.startsWith('/search/') && e.response?.headers['x-ratelimit-resource'] === 'search');
    expect(searches.length).toBe(r.requests.byCategory.search);
    // "304 answers to conditional requests do not consume the rate limit": the conditional searches spend no window.
    const counted = searches.filter((e) => e.response?.status !== 304);
    expect(counted.filter((e) => !e.request.headers.authorization).length).toBeLessThanOrEqual(LIMITS.search.perMinuteAnonymous);
    // No caller's window ran down: each answer left a request, so the client never waited for a reset.
    const limits = counted.map((e) => [Number(e.response!.headers['x-ratelimit-limit']), Number(e.response!.headers['x-ratelimit-remaining'])]);
    expect(limits.filter(([limit, remaining]) => !([LIMITS.search.perMinuteAuthenticated, LIMITS.search.perMinuteAnonymous] as number[]).includes(limit!) || remaining! < 1)).toEqual([]);
    // The reference enforces the limit: no request of the run met a rate-limit refusal.
    expect(r.transcript.filter((e) => /rate limit/i.test(JSON.stringify(e.response?.body ?? '')))).toEqual([]);
  }, 300_000);
});

describe.concurrent('writes', () => {
  it('are on by default only against the embedded reference', async () => {
    const r = await runConformance({ suites: ['alerts'] });
    expect(r.checks.some((c) => c.id === 'alerts.dismiss' && c.outcome === 'pass')).toBe(true);
  });

  it('are skipped with allowWrites false, and nothing is written', async () => {
    const r = await runConformance({ allowWrites: false });
    const writing = r.checks.filter((c) => c.skipReason === 'writes-not-allowed');
    expect(writing.length).toBeGreaterThan(5);
    expect(r.transcript.filter((e) => e.request.method !== 'GET')).toEqual([]);
  });

  it('are undone at the end of a whole run: alerts, imports and subscriptions end as they started; what cannot be undone is reported', async () => {
    const ref = await startReference({ port: 0, pollIntervalSeconds: 1 });
    try {
      const profile = referenceProfile(ref);
      const res = profile.resources!;
      const snapshot = async () => {
        const seen: Record<string, unknown> = {};
        for (const repo of [res.public_repo, res.archived_repo]) {
          seen[`alerts of ${repo}`] = (await call(ref.url, `/repos/${repo}/code-scanning/alerts?per_page=100`)).body
            .map((a: { number: number; state: string; dismissed_reason: unknown }) => [a.number, a.state, a.dismissed_reason]);
        }
        for (const repo of [res.import_repo, res.public_repo, res.workflow_repo]) seen[`import of ${repo}`] = (await call(ref.url, `/repos/${repo}/import`)).status;
        for (const id of res.thread_ids!) {
          // A restored subscription is a new one: the API offers no way to set created_at back.
          const { created_at: _created, ...subscription } = (await call(ref.url, `/notifications/threads/${id}/subscription`)).body;
          seen[`subscription of ${id}`] = subscription;
        }
        // The sacrificial user's own threads, whose writes the lockout checks put back as that user (locked out by the end: read from the state).
        for (const thread of ref.state.notifications.threads.values()) {
          if (thread.login !== profile.lockout_user!.login) continue;
          const { createdAt: _created, ...subscription } = thread.subscription ?? {};
          seen[`thread ${thread.id} of ${thread.login}`] = { unread: thread.unread, subscription };
        }
        return seen;
      };
      const before = await snapshot();
      const r = await runConformance({ profile, allowWrites: true });
      expect(r.counts.fail).toBe(0);
      expect(await snapshot()).toEqual(before);
      expect(r.restoration.restored).toBeGreaterThan(0);
      expect(r.restoration.leaks.map((l) => l.change).join('; ')).toMatch(/marked read/);
    } finally {
      await ref.close();
    }
  });
});

describe.concurrent('a lockout probe of a write wrongly admitted', () => {
  it('fails, and what it changed is put back as the sacrificial user or reported as left changed', async () => {
    const r = await runConformance({
      only: ['auth.lockout', 'auth.lockout.notifications.subscription-delete'], referenceFaults: ['auth-lockout-spares-valid-token@notifications.subscription-delete'],
    });
    expect(r.checks.map((c) => [c.id, c.outcome])).toEqual([['auth.lockout', 'pass'], ['auth.lockout.notifications.subscription-delete', 'fail']]);
    // The put-back is refused too: the lockout holds on every other endpoint.
    expect(r.restoration.leaks.map((l) => l.change).join('; ')).toMatch(/subscription of locksmith possibly left deleted/);
  });
});

describe.concurrent('an interrupted run', () => {
  it('skips the remaining checks and still undoes what it changed', async () => {
    const ref = await startReference({ port: 0, pollIntervalSeconds: 1 });
    try {
      const profile = referenceProfile(ref);
      const open = async () => (await call(ref.url, `/repos/${profile.resources!.public_repo}/code-scanning/alerts?per_page=100&state=open`)).body.length;
      const before = await open();
      const stop = new AbortController();
      const r = await runConformance({
        profile, allowWrites: true, suites: ['alerts'], signal: stop.signal,
        // Interrupt right after the first check that dismissed an alert.
        onCheck: (c) => { if (c.id === 'alerts.dismiss') stop.abort(); },
      });
      expect(r.checks.filter((c) => c.skipReason === 'interrupted').length).toBeGreaterThan(0);
      expect(r.restoration.restored).toBeGreaterThan(0);
      expect(await open()).toBe(before);
    } finally {
      await ref.close();
    }
  });
});

describe.concurrent('a retired source-import interface (503 everywhere)', () => {
  it('gets every import check skipped as feature-retired, none failed', async () => {
    const ref = await startReference({ port: 0, importsRetired: true, pollIntervalSeconds: 1 });
    try {
      const r = await runConformance({ profile: referenceProfile(ref), allowWrites: true, suites: ['imports'] });
      expect(r.checks.length).toBeGreaterThan(10);
      expect(r.checks.map((c) => c.skipReason)).toEqual(r.checks.map(() => 'feature-retired'));
    } finally {
      await ref.close();
    }
  });
});

describe.concurrent('the same run under a prefix and with the real platform\'s vendor word', () => {
  for (const options of [{ prefix: '/api/v3' }, { vendor: 'github' }]) {
    it(JSON.stringify(options), async () => {
      const r = await runConformance(options);
      expect(r.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'warn').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
      expect(r.counts.pass).toBeGreaterThan(50);
      if (options.vendor) expect(r.transcript.some((e) => e.request.headers.accept === 'application/vnd.github+json')).toBe(true);
      if (options.prefix) expect(r.transcript.every((e) => new URL(e.request.url).pathname.startsWith('/api/v3/'))).toBe(true);
    }, 300_000);
  }
});

const checksFor = new Map<string, string[]>();
for (const { spec } of planChecks({ base_url: 'http://plan.invalid' }, {})) checksFor.set(spec.requirement, [...(checksFor.get(spec.requirement) ?? []), spec.id]);

/**
 * `<fault>@<endpoint>` faults, by the fault they scope: the per-endpoint checks of a rule each request
 * only their endpoint, so one run with all of them on shows each caught where it applies. (Two faults
 * of one rule, such as either token scheme refused, would together leave no control to compare with.)
 */
const scoped = new Map<string, { requirement: string; faults: string[] }>();
for (const f of FAULTS) {
  if (!f.id.includes('@')) continue;
  const base = f.id.split('@')[0]!;
  scoped.set(base, { requirement: f.requirement, faults: [...(scoped.get(base)?.faults ?? []), f.id] });
}

describe.concurrent('the per-fault tests (test/suites/faults/, one file per group)', () => {
  it('have a file for every fault group, and no other', () => {
    const files = readdirSync(packagePath('test', 'suites', 'faults')).map((f) => f.replace(/\.test\.ts$/, '')).sort();
    expect(files).toEqual(Object.keys(FAULT_GROUPS).sort());
  });

  it('name only faults as known escapes, each with the check that is missing', () => {
    expect(Object.entries(KNOWN_ESCAPES).filter(([id, missing]) => !FAULTS.some((f) => f.id === id) || missing.length < 20)).toEqual([]);
  });

  it('cover every fault once', () => {
    // `<fault>@<endpoint>` faults are proven per rule below.
    expect(Object.values(FAULT_GROUPS).flat().map((f) => f.id).sort()).toEqual(FAULTS.filter((f) => !f.id.includes('@')).map((f) => f.id).sort());
  });
});

/**
 * The preflight's probes reach these endpoints: a scoped fault there, together with the rule's faults
 * everywhere else, is the target-wide fault, which the preflight reports once (see preflight.test.ts).
 * Each of them runs on its own.
 */
const PROBED = [PUBLIC_PROBE, RATE_PROBE].map((p) => matchEndpoint('GET', p.split('?')[0]!)!.endpoint.id);
/**
 * Bearer refused on every endpoint at once is the target-wide fault even off the probes: the setup
 * reads of other checks (the subscription before a PUT, the import before its authors) send Bearer
 * too. Each of these runs alone, with the check on its endpoint only.
 */
const ALONE = new Set(['auth-bearer-scheme-refused']);
const endpointOf = (fault: string) => fault.split('@')[1]!;
const batches = (base: string, faults: string[]): string[][] => {
  if (ALONE.has(base)) return faults.map((f) => [f]);
  const probed = faults.filter((f) => PROBED.includes(endpointOf(f)));
  return [faults.filter((f) => !probed.includes(f)), ...probed.map((f) => [f])].filter((b) => b.length);
};

describe.concurrent('every per-endpoint fault is caught by the check of its rule on that endpoint', () => {
  for (const [base, { requirement, faults }] of scoped) {
    it(`${base} (${requirement}): ${faults.length} endpoints`, async () => {
      for (const batch of batches(base, faults)) {
        const checks = checksFor.get(requirement)!;
        const only = ALONE.has(base) ? checks.filter((id) => id.endsWith(`.${endpointOf(batch[0]!)}`)) : checks;
        const r = await runConformance({ only, referenceFaults: batch, allowWrites: true });
        const caught = new Set(r.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'warn').map((c) => c.id));
        // The check on endpoint E is the one whose id ends with E.
        const missed = batch.filter((f) => ![...caught].some((id) => id.endsWith(`.${endpointOf(f)}`)));
        expect(missed, JSON.stringify(r.checks.map((c) => [c.id, c.outcome, c.message]))).toEqual([]);
      }
    });
  }
});
