/**
 * The end of a run, shared by `conformance` and `conformance merge` so a merged set of shards is
 * judged as one run: the gate's flags, the four reports, the job summary, the console summary and
 * the exit code.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { consoleSummary } from '../../reports/console.js';
import { compare, gateExitCode, loadBaseline, loadExpectations, type FailOn } from '../../reports/gate.js';
import type { TranscriptScope } from '../../reports/transcripts.js';
import { writeReports } from '../../reports/write.js';
import { terminalText } from '../../core/inert.js';
import { EXIT, UserError } from '../../core/exit-codes.js';
import type { RunResult, StopReason } from '../../core/model.js';
import { warnStepSummary } from './outputs.js';
import type { VerdictArgs } from './verdict-options.js';

export interface Gate {
  failOn: FailOn;
  baseline?: { path: string; report: RunResult };
  expectations?: ReturnType<typeof loadExpectations>;
}

/** Reads the baseline and expectations files before any work, so a wrong one costs nothing. */
export function loadGate(args: VerdictArgs): Gate {
  if (args['fail-on'] === 'new' && !args.baseline) throw new UserError('--fail-on new needs --baseline');
  return {
    failOn: args['fail-on'],
    ...(args.baseline ? { baseline: { path: args.baseline, report: loadBaseline(args.baseline) } } : {}),
    ...(args.expectations ? { expectations: loadExpectations(args.expectations) } : {}),
  };
}

export interface Publishing {
  reportDir: string;
  gate: Gate;
  transcripts: TranscriptScope;
  /** `GITHUB_STEP_SUMMARY`, when it takes writes (outputs.ts). */
  summaryFile: string | undefined;
  strict: boolean;
  /** Prints the setup notices not yet shown (after the diagnosis, which explains them). */
  sayNotices: () => void;
}

/** Writes the reports and summaries and sets the exit code; answers the files written. */
export function publish(result: RunResult, how: Publishing): string[] {
  const comparison = compare(result, how.gate.baseline, how.gate.expectations);
  const files = writeReports(result, how.reportDir, comparison, how.transcripts);
  // In a GitHub Actions job, the Markdown summary lands in the job summary.
  if (how.summaryFile) {
    try {
      appendFileSync(how.summaryFile, readFileSync(files.find((f) => f.endsWith('summary.md'))!, 'utf8'));
    } catch (err) {
      warnStepSummary(how.summaryFile, err);
    }
  }
  // Why the run stopped comes first and once: it explains everything below it.
  if (result.stopped) process.stderr.write(`conformance: ${terminalText(result.stopped.message)}\n`);
  if (result.stopped?.reason !== 'nothing-checked') how.sayNotices();
  process.stdout.write(consoleSummary(result, comparison, how.strict));
  process.stdout.write(`reports: ${files.join(', ')}\n`);
  process.exitCode = result.stopped ? STOP_EXIT[result.stopped.reason] : gateExitCode(result, comparison, how.gate.failOn);
  return files;
}

/** Target problems exit 3, usage and profile problems 2, a spent budget 4. */
const STOP_EXIT: Record<StopReason, number> = {
  unreachable: EXIT.unreachable,
  'server-error': EXIT.unreachable,
  'not-json': EXIT.unreachable,
  'wrong-api-root': EXIT.usage,
  'credentials-rejected': EXIT.usage,
  'nothing-checked': EXIT.usage,
  'budget-exhausted': EXIT.budgetExhausted,
  interrupted: EXIT.interrupted,
};
