/**
 * Sensitivity, proven: the whole run passes the correct reference, and every named fault whose
 * rule a check enforces is caught by that check (fail, or warn for unshown nullability).
 */
import { describe, expect, it } from 'vitest';
import { FAULTS } from '../../reference/faults.js';
import { LIMITS } from '../../spec/limits.js';
import { planChecks, runConformance } from '../../src/runner.js';

const planned = planChecks({ base_url: 'http://plan.invalid' }, {});
const checksFor = new Map<string, string[]>();
for (const { spec } of planned) checksFor.set(spec.requirement, [...(checksFor.get(spec.requirement) ?? []), spec.id]);

describe('the whole run against the correct reference', () => {
  it('has no failure and no warning, and stays within one window of the search limit', async () => {
    const r = await runConformance({});
    const bad = r.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'warn').map((c) => `${c.id}: ${c.message}`);
    expect(bad).toEqual([]);
    expect(r.counts.pass).toBeGreaterThan(50);
    expect(r.requests.byCategory.search).toBeLessThanOrEqual(LIMITS.search.perMinuteAuthenticated);
    // The reference enforces the limit: no request of the run met a rate-limit refusal.
    expect(r.transcript.filter((e) => /rate limit/i.test(JSON.stringify(e.response?.body ?? '')))).toEqual([]);
  });
});

describe('the same run under a prefix and with the real platform\'s vendor word', () => {
  for (const options of [{ prefix: '/api/v3' }, { vendor: 'github' }]) {
    it(JSON.stringify(options), async () => {
      const r = await runConformance(options);
      expect(r.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'warn').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
      expect(r.counts.pass).toBeGreaterThan(50);
      if (options.vendor) expect(r.transcript.some((e) => e.request.headers.accept === 'application/vnd.github+json')).toBe(true);
      if (options.prefix) expect(r.transcript.every((e) => new URL(e.request.url).pathname.startsWith('/api/v3/'))).toBe(true);
    });
  }
});

describe('every fault is caught by the checks of its requirement', () => {
  for (const fault of FAULTS) {
    const ids = checksFor.get(fault.requirement);
    if (!ids) continue;
    it(`${fault.id} → ${ids.join(', ')}`, async () => {
      const r = await runConformance({ only: ids, referenceFaults: [fault.id] });
      const caught = r.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'warn');
      expect(caught.map((c) => c.id), JSON.stringify(r.checks.map((c) => [c.id, c.outcome, c.message]))).not.toEqual([]);
    });
  }
});
