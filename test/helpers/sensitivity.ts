/**
 * The per-fault half of the sensitivity proof, one test file per fault group so vitest spreads the
 * groups over its workers. For each fault it runs the checks that enforce its rule (checksForFault)
 * against the reference started with that fault alone, and expects a failure or a warning. The full
 * fault x whole-run matrix stays in `npm run sensitivity`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Fault } from '../../reference/fault.js';
import { brokenEndpoints, FAULT_GROUPS, KNOWN_ESCAPES } from '../../reference/faults.js';
import { GOVERNS } from '../../spec/coverage/governs.js';
import { MATRIX_FILE, type Matrix } from '../../src/coverage.js';
import { packagePath } from '../../core/paths.js';
import { planChecks, runConformance } from '../../src/runner.js';

const planned = planChecks({ base_url: 'http://plan.invalid' }, {});
const suiteOf = new Map(planned.map(({ module, spec }) => [spec.id, module.name]));

/** endpoint -> suites whose checks requested it in a whole run (the committed, test-verified matrix). */
const suitesAt = new Map<string, Set<string>>();
const matrix = JSON.parse(readFileSync(packagePath(...MATRIX_FILE), 'utf8')) as Matrix;
for (const row of Object.values(matrix)) {
  for (const [endpoint, checks] of Object.entries(row)) {
    for (const check of checks) suitesAt.set(endpoint, (suitesAt.get(endpoint) ?? new Set()).add(suiteOf.get(check)!));
  }
}

/**
 * The checks a fault is run against: those of its requirement and of the requirements it is enforced
 * via; a rule with none of its own, the suites that request the endpoints the fault breaks. (Adding
 * those suites to every fault tripled the CPU time of these tests, measured, and the whole run per
 * fault is `npm run sensitivity`.)
 */
export function checksForFault(fault: Fault): string[] {
  const enforcing = new Set([fault.requirement, ...(GOVERNS[fault.requirement]?.via ?? [])]);
  const own = planned.filter(({ spec }) => enforcing.has(spec.requirement));
  if (own.length) return own.map(({ spec }) => spec.id);
  const suites = new Set(brokenEndpoints(fault).flatMap((e) => [...(suitesAt.get(e) ?? [])]));
  return planned.filter(({ module }) => suites.has(module.name)).map(({ spec }) => spec.id);
}

export function describeFaultGroup(group: string): void {
  const faults = FAULT_GROUPS[group];
  describe.concurrent(`every ${group} fault is caught by the checks enforcing its rule`, () => {
    it('is a known group', () => expect(faults?.length).toBeGreaterThan(0));
    for (const fault of faults ?? []) {
      const only = checksForFault(fault);
      const escape = KNOWN_ESCAPES[fault.id];
      it(`${fault.id} (${only.length} checks)${escape ? ': a known escape, not caught' : ''}`, async () => {
        const r = await runConformance({ only, referenceFaults: [fault.id], allowWrites: true, exhaustRateLimit: true });
        const caught = r.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'warn').map((c) => c.id);
        const seen = JSON.stringify(r.checks.map((c) => [c.id, c.outcome, c.message]));
        // A caught known escape is good news: remove it from KNOWN_ESCAPES.
        if (escape) expect(caught, `caught now: drop it from KNOWN_ESCAPES; ${seen}`).toEqual([]);
        else expect(caught, seen).not.toEqual([]);
      });
    }
  });
}
