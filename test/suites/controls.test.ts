/**
 * Negative checks have controls, and nothing observed is no pass: against the reference changed
 * in one thing (404, or 406, to every request but the few the preflight makes), no check passes
 * having seen only that answer, and no check that looks for a refusal takes it for one.
 */
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../core/model.js';
import { onlyPreflightServed, passedOnNothing, runAgainst } from '../helpers/altered-reference.js';

/** Checks that expect a refusal (401, 403, 404, 422 or an unstated 4xx), by the status they look for. */
const NEGATIVE: Record<string, string> = {
  'search.q-required': '422',
  'search.q-length-256': '422',
  'search.max-operators': '422',
  'search.code-requires-term': '422',
  'search.labels-repository-id': '422',
  'search.inaccessible-resources-422': '422',
  'search.app-user-issue-qualifier': '422',
  'events.user-org-own': '4xx',
  'alerts.no-advanced-security-403': '403',
  'alerts.not-found-404': '404',
  'alerts.org-owner-or-security-manager': '4xx',
  'alerts.tool-filters-exclusive': '4xx',
  'alerts.dismiss-requires-reason': '4xx',
  'alerts.patch-states': '4xx',
  'alerts.dismissed-reason-values': '4xx',
  'alerts.update-archived-403': '403',
  'imports.vcs-url-required': '422',
  'imports.workflow-automation-422': '422',
  'imports.delete': '404',
  'imports.not-found-404': '404',
  'imports.author-validation': '422',
  'imports.lfs-validation': '422',
  'auth.password-rejected': '4xx',
  'auth.invalid-credentials-401': '401',
  'auth.no-token-404-or-403': '404',
  'auth.sso-403-header': '404',
  'auth.notifications-classic-only': '404',
  'auth.lockout': '403',
  'permissions.code-scanning-refused': '404',
  'permissions.code-scanning-update': '404',
  'permissions.imports-refused': '404',
  'permissions.imports-uat-only': '404',
};

function against(status: number, message: string, checks: (get: () => RunResult) => void): void {
  describe(`a target answering ${status} to everything past the preflight`, () => {
    const run = runAgainst(onlyPreflightServed(status, message), { allowWrites: true });

    it('gets past the preflight, so the checks meet the answers', () => {
      expect(run().stopped).toBeUndefined();
      expect(run().checks.length).toBeGreaterThan(100);
    });

    it(`passes no check on ${status}s alone`, () => {
      expect(passedOnNothing(run())).toEqual([]);
    });

    checks(run);
  });
}

against(406, 'Not Acceptable', (run) => {
  it('passes no negative check, and leaves those whose control got the 406 inconclusive, naming it', () => {
    const negatives = run().checks.filter((c) => c.id in NEGATIVE);
    expect(negatives.length).toBeGreaterThan(25);
    expect(negatives.filter((c) => c.outcome === 'pass').map((c) => c.id)).toEqual([]);
    const inconclusive = negatives.filter((c) => c.skipReason === 'inconclusive');
    expect(inconclusive.length).toBeGreaterThan(10);
    for (const c of inconclusive) expect(c.message, c.id).toMatch(/406/);
  });
});

against(404, 'Not Found', (run) => {
  it('passes no negative check looking for a 404', () => {
    const looking = run().checks.filter((c) => NEGATIVE[c.id] === '404' || NEGATIVE[c.id] === '4xx');
    expect(looking.length).toBeGreaterThan(10);
    expect(looking.filter((c) => c.outcome === 'pass').map((c) => c.id)).toEqual([]);
  });
});
