/**
 * `conformance/vitest`: the suite as vitest tests, against a server the user's project starts.
 * Checks share state and order (a write is undone by a later step, polling checks wait together),
 * so the selected checks run once, as one `runConformance`, before the first of their tests; each
 * check's test then reports that check's outcome: a fail throws with the spec sentence, findings
 * and request; a skip is vitest's skip with the reason; warn and info pass with an annotation.
 * vitest is a peer dependency of this entry only: the CLI never loads it.
 */
import { beforeAll, describe, it, type TestContext } from 'vitest';
import { UserError } from '../core/exit-codes.js';
import { loadProfile, parseProfile, type Profile } from '../core/profile.js';
import type { CheckResult, RunResult } from '../core/model.js';
import { describeCheck } from '../reports/console.js';
import { stoppedLine } from '../reports/summary.js';
import { planChecks, runConformance, type PlannedCheck, type RunOptions } from './runner.js';

export interface ConformanceTestOptions extends Omit<RunOptions, 'profile' | 'referenceFaults' | 'onCheck' | 'onNotices' | 'clock'> {
  /** The profile (docs/profile.md), or the path of its JSON file; `baseUrl` alone runs the checks that need no token. */
  profile?: Profile | string;
  /** The name of the describe block holding the checks (default `conformance`). */
  name?: string;
  /** Longest whole run, in milliseconds (default 10 minutes): then it stops as Ctrl-C stops it (changes undone, the checks not begun skipped). */
  runTimeoutMs?: number;
}

const DEFAULT_RUN_TIMEOUT_MS = 10 * 60_000;
/** A run stopped at its limit still undoes its changes and reports: the hook waits this much longer. */
const UNDO_GRACE_MS = 60_000;

/**
 * Registers one vitest test per selected check (grouped by suite) and one for the run as a whole.
 * Call it at the top level of a test file, once the server is listening (top-level await works).
 */
export function conformanceTests(options: ConformanceTestOptions): void {
  const { name = 'conformance', runTimeoutMs = DEFAULT_RUN_TIMEOUT_MS, profile: given, ...rest } = options;
  let run: RunOptions;
  let planned: PlannedCheck[];
  try {
    // As the CLI reads a profile: checked against its schema, `env:NAME` values resolved.
    const profile = typeof given === 'string' ? loadProfile(given, process.env, rest.baseUrl) : given && parseProfile(given, 'given to conformanceTests', process.env, rest.baseUrl);
    if (!profile && !rest.baseUrl) throw new UserError('give the baseUrl (or profile) of the server your project starts');
    run = { ...rest, ...(profile ? { profile } : {}) };
    planned = planChecks(profile ?? { base_url: rest.baseUrl! }, run);
  } catch (err) {
    // A wrong option or profile is one line, as on the command line.
    throw err instanceof UserError ? quiet(`conformanceTests: ${err.message}`) : err;
  }
  let result: RunResult | undefined;
  let limit: AbortSignal | undefined;

  // Stopped at the limit is said as such, not as the CLI's Ctrl-C.
  const stopped = (stop: NonNullable<RunResult['stopped']>) => (stop.reason === 'interrupted' && limit?.aborted
    ? `Run stopped at runTimeoutMs (${runTimeoutMs} ms): the checks not begun were skipped` : stoppedLine(stop));

  describe(name, () => {
    beforeAll(async () => {
      limit = AbortSignal.timeout(runTimeoutMs);
      result = await runConformance({ ...run, signal: AbortSignal.any([limit, ...(run.signal ? [run.signal] : [])]) });
      // A broken setup is one diagnosis (the hook's error), not a failure per check.
      if (result.stopped && !result.checks.length) throw quiet(stopped(result.stopped));
    }, runTimeoutMs + UNDO_GRACE_MS);

    for (const suite of [...new Set(planned.map((p) => p.suite))]) {
      describe(suite, () => {
        for (const { spec } of planned.filter((p) => p.suite === suite)) {
          it(`${spec.id}: ${spec.title}`, async (ctx) => report(ctx, result!.checks.find((c) => c.id === spec.id), result!));
        }
      });
    }

    it('the run completed', async (ctx) => {
      for (const notice of result!.notices) await ctx.annotate(notice, 'notice');
      if (result!.stopped) throw quiet(stopped(result!.stopped));
    });
  });
}

async function report(ctx: TestContext, check: CheckResult | undefined, result: RunResult): Promise<void> {
  if (!check) throw quiet('the run stopped before this check');
  switch (check.outcome) {
    case 'pass': return;
    case 'fail': throw quiet(describeCheck(check, check.findings, result));
    case 'skip': return ctx.skip(`${check.skipReason}: ${check.message}`);
    case 'warn':
    case 'info': await ctx.annotate(describeCheck(check, check.findings, result), check.outcome);
  }
}

/** An error vitest prints as its message alone: the frames would point into this package, not at the server. */
function quiet(message: string): Error {
  const err = new Error(message);
  err.stack = message;
  return err;
}
