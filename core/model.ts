/** The structured result of a run: what reports, exit codes and the programmatic API share. */
import type { Requirement } from '../spec/requirements/index.js';

/** pass · fail (a stated rule broken) · warn (a recommendation, or null where nullability is unshown) · skip · info (observed where the spec says "not shown"). */
export const OUTCOMES = ['pass', 'fail', 'warn', 'skip', 'info'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** Why a check did not run. A fixed list, so reports and baselines can group by it. */
export const SKIP_REASONS = [
  'missing-token', 'missing-resource', 'writes-not-allowed', 'opt-in-required', 'feature-retired', 'budget-exhausted', 'interrupted', 'inconclusive', 'setup-failed',
  'token-rejected', 'rate-limiting-off', 'media-type-refused', 'bearer-refused', 'wait-too-long',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** What a user can do about each skip reason, for the diagnosis of a run that checked nothing. */
export const SKIP_FIXES: Record<SkipReason, string> = {
  'missing-token': 'name the token in the profile (docs/profile.md)',
  'missing-resource': 'name the resource in the profile (docs/profile.md)',
  'writes-not-allowed': 'pass --allow-writes against a target that may be changed',
  'opt-in-required': 'pass --exhaust-rate-limit',
  'feature-retired': 'nothing: the target has retired the feature',
  'budget-exhausted': 'raise --max-requests',
  interrupted: 'run again to the end',
  inconclusive: 'give the profile resources with data to judge (each check says what it saw)',
  'setup-failed': 'fix the profile resource the check names',
  'token-rejected': 'replace the rejected token in the profile',
  'rate-limiting-off': 'nothing, unless rate limiting can be turned on for the target',
  'media-type-refused': 'make the target accept the recommended media type',
  'bearer-refused': 'make the target accept tokens sent as "Bearer <TOKEN>"',
  'wait-too-long': 'raise --max-wait (one wait) or --max-total-wait (all waits of the run), or run when the target asks for shorter waits',
};

/** Why a run did not run its checks (or checked nothing): one diagnosis, see the CLI's exit codes. */
export const STOP_REASONS = ['unreachable', 'server-error', 'not-json', 'wrong-api-root', 'credentials-rejected', 'nothing-checked', 'budget-exhausted', 'interrupted'] as const;
export type StopReason = (typeof STOP_REASONS)[number];

export interface Finding {
  /** JSON pointer into the response body, when the finding is about a part of it. */
  path?: string;
  message: string;
}

export interface ExchangeRecord {
  id: number;
  /** `bodyOmitted`: characters cut off the end of the body by the reports (see transcriptKept). */
  request: { method: string; url: string; headers: Record<string, string>; body?: unknown; bodyOmitted?: number };
  response?: { status: number; headers: Record<string, string>; body?: unknown; bodyOmitted?: number };
  error?: string;
  durationMs: number;
}

export interface CheckResult {
  /** Stable check id; reports and baselines refer to it. */
  id: string;
  /** The id up to its first dot: what --suite selects and the reports group by. */
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

/** Which part of a selection a run with `--shard` ran, so `conformance merge` can tell a whole set of shards. */
export interface ShardRecord {
  index: number;
  count: number;
  /** Checks the selection held before the shard took its part. */
  selected: number;
  /** Each check's place (0-based) among the selected, in the order of `checks`: a merge restores the run order. */
  positions: number[];
}

export interface RunResult {
  formatVersion: 1;
  /** The conformance package version that ran: shards of different versions may have split differently. */
  version?: string;
  target: { baseUrl: string; prefix: string; vendor: string; embeddedReference: boolean };
  startedAt: string;
  durationMs: number;
  counts: Record<Outcome, number>;
  checks: CheckResult[];
  requests: { total: number; byCategory: Record<string, number> };
  /** Every exchange, secrets redacted; in the reports, only those `transcriptKept` says. */
  transcript: ExchangeRecord[];
  /** Set by the reports when they keep part of the transcript: the exchanges of failing and warning checks (and a stopped setup's), bodies cut to `bodyChars` characters. */
  transcriptKept?: { scope: 'failing'; omitted: number; bodyChars: number };
  /** Changes the writing checks made: how many were undone, and what could not be (the leak report). */
  restoration: { restored: number; leaks: { change: string; reason: string }[] };
  /** Problems of the setup found before the checks that did not stop the run; the checks they affect are skipped naming them. */
  notices: string[];
  /** Set when the run could not be carried out as a whole (a broken setup found before any check, a spent budget, nothing checked, Ctrl-C). */
  stopped?: { reason: StopReason; message: string };
  shard?: ShardRecord;
}
