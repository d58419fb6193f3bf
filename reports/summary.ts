/** Counts per suite, shared by every report so they all say the same thing. */
import { OUTCOMES, type CheckResult, type Outcome, type RunResult } from '../src/model.js';

export interface SuiteSummary {
  suite: string;
  counts: Record<Outcome, number>;
  checks: CheckResult[];
}

export function bySuite(result: RunResult): SuiteSummary[] {
  const out = new Map<string, SuiteSummary>();
  for (const c of result.checks) {
    let s = out.get(c.suite);
    if (!s) {
      s = { suite: c.suite, counts: Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>, checks: [] };
      out.set(c.suite, s);
    }
    s.counts[c.outcome] += 1;
    s.checks.push(c);
  }
  return [...out.values()];
}

export function countsLine(counts: Record<Outcome, number>): string {
  return OUTCOMES.map((o) => `${counts[o]} ${o === 'fail' ? 'failed' : o === 'pass' ? 'passed' : o === 'skip' ? 'skipped' : o === 'warn' ? 'warned' : 'info'}`).join(', ');
}
