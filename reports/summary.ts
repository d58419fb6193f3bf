/** Counts per suite, shared by every report so they all say the same thing. */
import { OUTCOMES, type CheckResult, type Outcome, type RunResult } from '../core/model.js';

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

/** Requests with their split by rate-limit category, which adds up to the total (see the runner's "uncounted"). */
export function requestsLine(requests: RunResult['requests']): string {
  const parts = Object.entries(requests.byCategory).map(([category, n]) => `${category} ${n}`);
  return `${requests.total} requests${parts.length ? ` (${parts.join(', ')})` : ''}`;
}

/** Why the run is incomplete, in the same words in every report; an interrupted run's results cover only the checks before Ctrl-C. */
export function stoppedHeading(stopped: NonNullable<RunResult['stopped']>): string {
  return stopped.reason === 'interrupted' ? 'Run interrupted, results incomplete' : `Run stopped (${stopped.reason})`;
}

export function stoppedLine(stopped: NonNullable<RunResult['stopped']>): string {
  return `${stoppedHeading(stopped)}: ${stopped.message}`;
}
