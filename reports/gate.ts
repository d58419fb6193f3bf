/**
 * The CI gate: compare a run with a baseline report (newly failing, newly passing, unchanged) and
 * with an expectations file of known failures (like web-platform-tests expectations). An expected
 * failure that now passes is reported, so the file stays honest.
 */
import { readFileSync } from 'node:fs';
import { EXIT, UserError } from '../core/exit-codes.js';
import type { RunResult } from '../core/model.js';

export interface Expectations {
  /** Check id → why it is known to fail. */
  'expected-failures': Record<string, string>;
}

export interface Comparison {
  baseline?: string;
  newlyFailing: string[];
  newlyPassing: string[];
  unchanged: number;
  /** Failures the expectations file names. */
  expectedFailures: string[];
  /** Checks the expectations file says fail, which passed. */
  unexpectedPasses: string[];
}

export type FailOn = 'any' | 'new';

function readJson<T>(path: string, what: string): T {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch (err) {
    throw new UserError(`${what} ${path}: cannot read (${(err as Error).message.split('\n')[0]})`, EXIT.usage);
  }
}

export function loadBaseline(path: string): RunResult {
  return loadReport(path, '--baseline');
}

/** A report.json, `what` naming where it was given (a flag, or the merge command) in the error. */
export function loadReport(path: string, what: string): RunResult {
  const r = readJson<RunResult>(path, what);
  if (!Array.isArray(r?.checks)) throw new UserError(`${what} ${path}: not a conformance report.json`, EXIT.usage);
  return r;
}

export function loadExpectations(path: string): Expectations {
  const e = readJson<Expectations>(path, '--expectations');
  const map = e?.['expected-failures'];
  if (!map || typeof map !== 'object' || Object.values(map).some((v) => typeof v !== 'string')) {
    throw new UserError(`--expectations ${path}: expected {"expected-failures": {"<check id>": "<reason>"}}`, EXIT.usage);
  }
  return e;
}

export function compare(result: RunResult, baseline?: { path: string; report: RunResult }, expectations?: Expectations): Comparison {
  const known = expectations?.['expected-failures'] ?? {};
  const failing = (r: RunResult) => new Set(r.checks.filter((c) => c.outcome === 'fail').map((c) => c.id));
  const now = failing(result);
  const before = baseline ? failing(baseline.report) : new Set<string>();
  const expected = (id: string) => Object.hasOwn(known, id);
  // Without a baseline nothing is new or old: every failure is just a failure.
  const newlyFailing = baseline ? [...now].filter((id) => !before.has(id) && !expected(id)) : [];
  const newlyPassing = baseline ? [...before].filter((id) => result.checks.some((c) => c.id === id && c.outcome === 'pass')) : [];
  return {
    ...(baseline ? { baseline: baseline.path } : {}),
    newlyFailing,
    newlyPassing,
    unchanged: result.checks.length - newlyFailing.length - newlyPassing.length,
    expectedFailures: [...now].filter(expected),
    unexpectedPasses: Object.keys(known).filter((id) => result.checks.some((c) => c.id === id && c.outcome === 'pass')),
  };
}

/** Exit code of the gate: `any` fails on every unexpected failure, `new` only on regressions against the baseline. */
export function gateExitCode(result: RunResult, comparison: Comparison, failOn: FailOn): number {
  if (failOn === 'new') return comparison.newlyFailing.length ? EXIT.checkFailed : EXIT.ok;
  const unexpected = result.checks.filter((c) => c.outcome === 'fail' && !comparison.expectedFailures.includes(c.id));
  return unexpected.length ? EXIT.checkFailed : EXIT.ok;
}

export function comparisonLines(c: Comparison): string[] {
  const lines: string[] = [];
  if (c.baseline) lines.push(`against ${c.baseline}: ${c.newlyFailing.length} newly failing, ${c.newlyPassing.length} newly passing, ${c.unchanged} unchanged`);
  if (c.newlyFailing.length) lines.push(`newly failing: ${c.newlyFailing.join(', ')}`);
  if (c.newlyPassing.length) lines.push(`newly passing: ${c.newlyPassing.join(', ')}`);
  if (c.expectedFailures.length) lines.push(`expected failures: ${c.expectedFailures.join(', ')}`);
  if (c.unexpectedPasses.length) lines.push(`expected to fail but passed (update the expectations file): ${c.unexpectedPasses.join(', ')}`);
  return lines;
}
