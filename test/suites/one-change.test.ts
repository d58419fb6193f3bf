/**
 * Fields and wording a correct server may differ in: against the reference changed in that one
 * thing, nothing fails and no check passes having seen nothing; what cannot be judged is inconclusive.
 */
import { describe, expect, it } from 'vitest';
import type { CheckResult, RunResult } from '../../core/model.js';
import type { RunOptions } from '../../src/runner.js';
import {
  alertUpdateWithoutDismissal, busyTimelines, passedOnNothing, rateLimitWithout, runAgainst, validationFailedCapitalised, windowEndsAsRead, withoutField, type Alteration,
} from '../helpers/altered-reference.js';

const ids = (r: RunResult, pick: (c: CheckResult) => boolean) => r.checks.filter(pick).map((c) => c.id).sort();

/** `alone`: the selection is the checks that cannot judge, so the run checked nothing (exit 2). */
function against(title: string, alteration: Alteration, select: Pick<RunOptions, 'suites' | 'grep'>, checks: (get: () => RunResult) => void, alone = false): void {
  describe(title, () => {
    const run = runAgainst(alteration, { allowWrites: true, ...select });

    it('fails nothing and passes nothing on nothing', () => {
      expect(run().stopped?.reason).toBe(alone ? 'nothing-checked' : undefined);
      expect(run().checks.filter((c) => c.outcome === 'fail').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
      expect(passedOnNothing(run())).toEqual([]);
    });

    checks(run);
  });
}

against('search 422s worded "Validation Failed" (GitHub\'s capital F)', validationFailedCapitalised, { suites: ['search'] }, (run) => {
  it('every search check that reads the 422 message warns, quoting it; the rest pass', () => {
    const warned = run().checks.filter((c) => c.outcome === 'warn');
    expect(warned.map((c) => c.id).sort()).toEqual([
      'search.app-user-issue-qualifier', 'search.code-requires-term', 'search.inaccessible-resources-422', 'search.inaccessible-resources-422.code',
      'search.max-operators', 'search.max-operators.code', 'search.q-length-256', 'search.q-length-256.code', 'search.q-length-256.labels',
      'search.q-required', 'search.q-required.code', 'search.q-required.labels', 'search.unknown-account-422',
    ]);
    for (const c of warned) expect(c.message, c.id).toContain('"Validation Failed", \'Validation failed\' in other letter case');
    expect(ids(run(), (c) => c.outcome === 'pass')).toContain('search.labels-repository-id');
  });
});

against('GET /rate_limit without core.used (or any used)', rateLimitWithout('used'), { suites: ['rate-limit'] }, (run) => {
  it('the counting checks are inconclusive, naming the absent counter; the status check notes it', () => {
    // Core counted per endpoint.
    const core = ids(run(), (c) => c.id.startsWith('rate-limit.core-counts.'));
    expect(core.length).toBeGreaterThan(20);
    const separate = ['search.code', 'search.commits', 'search.issues', 'search.labels', 'search.repositories'].map((e) => `rate-limit.search-separate.${e}`);
    const counting = ['rate-limit.304-not-counted', ...core, 'rate-limit.endpoint-not-counted', ...separate];
    // The per-endpoint 304 checks of the conditional scenario share the prefix; they need a 304 to count first, and have tests of their own.
    const perEndpoint304 = (c: CheckResult) => c.id.startsWith('rate-limit.304-not-counted.');
    expect(ids(run(), (c) => c.skipReason === 'inconclusive' && !perEndpoint304(c))).toEqual(counting);
    for (const c of run().checks.filter((x) => counting.includes(x.id))) expect(c.message, c.id).toMatch(/no integer resources\.(core|search)\.used \(absent\)/);
    const status = run().checks.find((c) => c.id === 'rate-limit.status-categories')!;
    expect(status.outcome).toBe('pass');
    expect(status.findings.map((f) => f.message)).toContain('resources.core.used absent (requiredness not shown)');
  });
});

against('GET /rate_limit read as each window ends (reset is the second of the answer)', windowEndsAsRead, { suites: ['rate-limit'] }, (run) => {
  it('the checks comparing two readings are inconclusive, naming the reset; the rest still judge', () => {
    const compared = ['rate-limit.endpoint-not-counted', ...['search.code', 'search.issues'].map((e) => `rate-limit.search-separate.${e}`), 'rate-limit.core-counts.events.public'];
    for (const id of compared) {
      const c = run().checks.find((x) => x.id === id)!;
      expect(c.skipReason, id).toBe('inconclusive');
      expect(c.message, id).toMatch(/the (core|search) window reset between the two readings of GET \/rate_limit/);
    }
    expect(run().checks.find((c) => c.id === 'rate-limit.status-categories')!.outcome).toBe('pass');
  });
});

against('alert updates without dismissed_at and dismissed_by', alertUpdateWithoutDismissal, { grep: 'alerts.dismiss' }, (run) => {
  it('alerts.dismiss passes on the state and reason it saw, noting the absent fields', () => {
    const dismiss = run().checks.find((c) => c.id === 'alerts.dismiss')!;
    expect(dismiss.outcome).toBe('pass');
    expect(dismiss.findings.map((f) => f.message)).toContain('the answer has no dismissed_at, dismissed_by (requiredness not shown)');
  });
});

/** A field whose requiredness the spec does not show, left out where these checks read it: they cannot judge, so they are inconclusive. */
const UNSENT: [field: string, where: RegExp, select: Pick<RunOptions, 'suites' | 'grep'>, inconclusive: string[]][] = [
  ['updated_at', /^\/notifications$/, { grep: 'notifications.newest-first' }, ['notifications.newest-first']],
  ['unread', /^\/notifications\/threads\/[^/]+$/, { grep: 'PATCH on a thread answers 205' }, ['notifications.thread-mark-read']],
  ['ignored', /\/subscription$/, { grep: 'notifications.subscription-ignore' }, ['notifications.subscription-ignore']],
  ['created_at', /events/, { suites: ['events'] }, ['events.age-90-days', 'events.public-delay']],
  ['public', /received_events\/public$/, { grep: 'events.received-public-only' }, ['events.received-public-only']],
  ['score', /^\/search\//, { grep: 'search.best-match-descending' }, ['search.best-match-descending']],
  ['total_count', /^\/search\//, { grep: 'search.total-count' }, ['search.total-count']],
  ['state', /code-scanning\/alerts$/, { grep: 'alerts.state-filter' }, ['alerts.state-filter']],
  ['created_at', /code-scanning\/alerts$/, { grep: 'alerts.sort-direction' }, ['alerts.sort-direction']],
  ['size', /large_files$/, { grep: 'Large files listed' }, ['imports.large-files']],
  ['id', /import\/authors$/, { grep: 'since lists only authors' }, ['imports.authors-since']],
];
for (const [field, where, select, inconclusive] of UNSENT) {
  against(`${field} left out of GET ${where.source}`, withoutField(field, where), select, (run) => {
    it(`${inconclusive.join(', ')}: inconclusive, not passed`, () => {
      expect(ids(run(), (c) => inconclusive.includes(c.id) && c.skipReason === 'inconclusive')).toEqual([...inconclusive].sort());
    });
  }, !select.suites);
}

against('event timelines that gain an event between any two reads (a busy repository)', busyTimelines, { suites: ['conditional', 'events', 'rate-limit'] }, (run) => {
  it('the 304 checks of the timelines are inconclusive, naming the change; the other polls still judge', () => {
    const byId = (id: string) => run().checks.find((c) => c.id === id)!;
    for (const id of ['conditional.events-304', 'events.etag-304-every-timeline', 'rate-limit.304-not-counted']) {
      expect(byId(id).skipReason, id).toBe('inconclusive');
    }
    expect(byId('conditional.events-304').message).toMatch(/changed since it was read \(etag "[^"]+" → "busy-\d+"\)/);
    expect(byId('events.etag-304-every-timeline').message).toBe('every timeline changed between the polls');
    expect(byId('conditional.notifications-304').outcome).toBe('pass');
  });
});
