/** The structured result of a run: what reports, exit codes and the programmatic API share. */
import type { Requirement } from '../spec/requirements/index.js';

/** pass · fail (a stated rule broken) · warn (a recommendation, or null where nullability is unshown) · skip · info (observed where the spec says "not shown"). */
export const OUTCOMES = ['pass', 'fail', 'warn', 'skip', 'info'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** Why a check did not run. A fixed list, so reports and baselines can group by it. */
export const SKIP_REASONS = [
  'missing-token', 'missing-resource', 'writes-not-allowed', 'opt-in-required', 'feature-retired', 'budget-exhausted', 'interrupted', 'inconclusive', 'setup-failed',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export interface Finding {
  /** JSON pointer into the response body, when the finding is about a part of it. */
  path?: string;
  message: string;
}

export interface ExchangeRecord {
  id: number;
  request: { method: string; url: string; headers: Record<string, string>; body?: unknown };
  response?: { status: number; headers: Record<string, string>; body?: unknown };
  error?: string;
  durationMs: number;
}

export interface CheckResult {
  /** Stable check id; reports and baselines refer to it. */
  id: string;
  suite: string;
  title: string;
  requirement: Pick<Requirement, 'id' | 'level' | 'doc' | 'section' | 'sentence'>;
  outcome: Outcome;
  skipReason?: SkipReason;
  message: string;
  findings: Finding[];
  /** Ids of the exchanges this check made (see RunResult.transcript). */
  exchanges: number[];
  durationMs: number;
}

export interface RunResult {
  formatVersion: 1;
  target: { baseUrl: string; prefix: string; vendor: string; embeddedReference: boolean };
  startedAt: string;
  durationMs: number;
  counts: Record<Outcome, number>;
  checks: CheckResult[];
  requests: { total: number; byCategory: Record<string, number> };
  /** Every exchange, secrets redacted. */
  transcript: ExchangeRecord[];
  /** Changes the writing checks made: how many were undone, and what could not be (the leak report). */
  restoration: { restored: number; leaks: { change: string; reason: string }[] };
  /** Set when the run could not be carried out as a whole (unreachable target, rejected credentials, spent budget). */
  stopped?: { reason: 'unreachable' | 'credentials-rejected' | 'budget-exhausted'; message: string };
}
