/**
 * The schema suite, proven on the reference: it passes the correct reference with no warning,
 * and it catches each kind of schema violation a named fault introduces.
 */
import { describe, expect, it } from 'vitest';
import type { CheckResult, RunResult } from '../../core/model.js';
import { runConformance } from '../../src/runner.js';
import { referenceProfile } from '../../reference/profile.js';
import { startReference } from '../../reference/server.js';

const run = (faults: string[] = []) => runConformance({ suites: ['schema', 'resource'], referenceFaults: faults });
const findings = (r: RunResult, outcome: CheckResult['outcome']) =>
  r.checks.filter((c) => c.outcome === outcome).flatMap((c) => c.findings.map((f) => ({ check: c.id, ...f })));

describe('schema suite', () => {
  it('passes the correct reference with no failure and no warning', async () => {
    const r = await run();
    expect(r.counts.fail).toBe(0);
    expect(r.counts.warn).toBe(0);
    expect(r.counts.pass).toBeGreaterThan(20);
    // Writes are on against the embedded reference, so an import exists to read: nothing is skipped.
    expect(r.counts.skip).toBe(0);
  });

  it('without writes, skips the import reads with a reason instead of failing them, and every write', async () => {
    const r = await runConformance({ suites: ['schema', 'resource'], allowWrites: false });
    const skipped = (reason: string) => r.checks.filter((x) => x.outcome === 'skip' && x.skipReason === reason).map((c) => c.id).sort();
    expect(skipped('missing-resource')).toEqual([
      'resource.url-fields.imports.authors', 'resource.url-fields.imports.get', 'schema.imports.authors', 'schema.imports.get', 'schema.imports.large-files',
    ]);
    expect(skipped('writes-not-allowed')).toEqual([
      'schema.code-scanning.alert-update', 'schema.imports.author-update', 'schema.imports.lfs', 'schema.imports.start', 'schema.imports.update',
      'schema.notifications.subscription-set',
    ]);
    expect(r.counts.skip).toBe(11);
    expect(r.counts.fail).toBe(0);
  });

  it('in strict mode reports undescribed fields as information, never as failures', async () => {
    const r = await runConformance({ suites: ['schema', 'resource'], strict: true });
    expect(r.counts.fail).toBe(0);
    const repoSearch = r.checks.find((c) => c.id === 'schema.search.repositories')!;
    expect(repoSearch.outcome).toBe('pass');
    expect(repoSearch.findings.some((f) => /field "stargazers_count" is not described by the spec/.test(f.message))).toBe(true);
  });

  it('fails a field ending in _url that is not a string where no field list names it (repository search items)', async () => {
    const r = await runConformance({ suites: ['schema', 'resource'], referenceFaults: ['values-url-fields-objects@search.repositories'], only: ['schema.search.repositories', 'resource.url-fields.search.repositories'] });
    const outcome = (id: string) => r.checks.find((c) => c.id === id)!;
    // Item fields of repository search are not shown, so the schema has nothing to say about them.
    expect(outcome('schema.search.repositories').outcome).toBe('pass');
    const urls = outcome('resource.url-fields.search.repositories');
    expect(urls.outcome).toBe('fail');
    expect(urls.findings.some((f) => f.path === '/items/*/html_url' && /object, not a string/.test(f.message))).toBe(true);
  });

  it('says how many records each check graded', async () => {
    const r = await run();
    const events = r.checks.find((c) => c.id === 'schema.events.public')!;
    expect(events.message).toMatch(/^graded [1-9]\d* items as event/);
    expect(r.checks.find((c) => c.id === 'schema.rate-limit.get')!.message).toMatch(/^graded 1 item as rate-limit/);
  });

  it('skips as inconclusive, saying what it saw, when a list or a search envelope holds nothing to grade', async () => {
    const ref = await startReference({ port: 0, pollIntervalSeconds: 1 });
    try {
      const profile = referenceProfile(ref);
      profile.resources = { ...profile.resources, search_keyword: 'conformance-matches-nothing', public_repo: 'acme/import-target' };
      const r = await runConformance({ profile, suites: ['schema', 'resource'], only: ['schema.search.issues', 'schema.notifications.repo-list'], allowWrites: false });
      const outcome = (id: string) => r.checks.filter((c) => c.id === id).map((c) => [c.outcome, c.skipReason, c.message]);
      expect(outcome('schema.search.issues')).toEqual([['skip', 'inconclusive', 'the envelope has total_count 0 and an empty items array: nothing to grade']]);
      expect(outcome('schema.notifications.repo-list')).toEqual([['skip', 'inconclusive', 'the list is empty: nothing to grade']]);
    } finally {
      await ref.close();
    }
  });

  const CASES: [fault: string, outcome: 'fail' | 'warn', expected: RegExp][] = [
    ['schema-user-id-string', 'fail', /expected integer, got string/],
    ['schema-repository-private-string', 'fail', /\/private.*expected boolean/],
    ['alerts-timestamps-millis', 'fail', /expected a timestamp of the form YYYY-MM-DDTHH:MM:SSZ/],
    ['notifications-reason-outside-enum', 'fail', /expected one of .*"watching"/],
    ['search-incomplete-results-string', 'fail', /\/incomplete_results.*expected boolean/],
    ['events-push-size-string', 'fail', /payload\/size.*expected integer/],
    ['schema-subscription-ignored-string', 'fail', /\/ignored.*expected boolean/],
    ['schema-import-has-large-files-string', 'fail', /\/has_large_files.*expected boolean/],
    ['schema-import-author-id-string', 'fail', /\/0\/id.*expected integer/],
    ['schema-large-file-size-string', 'fail', /\/size.*expected integer/],
    ['schema-code-item-score-string', 'fail', /\/items\/0\/score.*expected number/],
    ['schema-commit-comment-count-string', 'fail', /\/commit\/comment_count.*expected integer/],
    ['schema-label-item-default-string', 'fail', /\/default.*expected boolean/],
    ['schema-issue-number-string', 'fail', /\/items\/0\/number.*expected integer/],
    ['schema-event-public-string', 'fail', /\/0\/public.*expected boolean/],
    ['schema-alert-number-string', 'fail', /number.*expected integer/],
    ['schema-org-alert-repository-name', 'fail', /\/0\/repository.*expected object/],
    ['schema-repository-description-null', 'warn', /null where the spec does not state the field nullable/],
  ];
  for (const [fault, outcome, expected] of CASES) {
    it(`catches ${fault} as ${outcome}`, async () => {
      const r = await run([fault]);
      const hits = findings(r, outcome).filter((f) => expected.test(`${f.path} ${f.message}`));
      expect(hits.length, JSON.stringify(findings(r, outcome).slice(0, 3))).toBeGreaterThan(0);
      if (outcome === 'warn') expect(r.counts.fail).toBe(0);
    });
  }
});
