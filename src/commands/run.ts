/** The default command: run the suites against a target (or the embedded reference) and write reports. */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Argv } from 'yargs';
import { consoleSummary, progressLine } from '../../reports/console.js';
import { terminalText } from '../../reports/inert.js';
import { compare, comparisonLines, gateExitCode, loadBaseline, loadExpectations } from '../../reports/gate.js';
import { writeReports } from '../../reports/write.js';
import { referenceProfileAt } from '../../reference/profile.js';
import { requirement } from '../../spec/requirements/index.js';
import { DEFAULT_MAX_BODY_MB, maxBodyBytes } from '../bounds.js';
import { TOTAL_TIMEOUT_MS } from '../client.js';
import { DEFAULT_MAX_TOTAL_WAIT_S, DEFAULT_MAX_WAIT_S } from '../client.js';
import { EXIT, UserError } from '../exit-codes.js';
import { JOURNAL_FILE } from '../journal.js';
import type { RunResult, StopReason } from '../model.js';
import { loadProfile, type Profile } from '../profile.js';
import { planChecks, runConformance } from '../runner.js';
import { waitingLine } from './waiting-line.js';

export function runOptions(y: Argv) {
  return y
    .option('base-url', { type: 'string', describe: 'API root of the target; without it (and without --profile) the built-in reference is started' })
    .option('profile', { type: 'string', describe: 'Target profile JSON (see docs/profile.md), or `reference`: the built-in reference\'s tokens and resources, for a target that answers as it does (e.g. a proxy replaying a cassette recorded from it)' })
    .option('suite', { type: 'string', array: true, describe: 'Run only these suites' })
    .option('grep', { type: 'string', describe: 'Run only checks whose id or title contains this text' })
    .option('exhaust-rate-limit', { type: 'boolean', default: false, describe: 'Also run the check that spends the anonymous search window to see the refusal' })
    .option('strict', { type: 'boolean', default: false, describe: 'Also report response fields the spec does not describe (as information)' })
    .option('allow-writes', { type: 'boolean', describe: 'Allow checks that change the target (PATCH, PUT, DELETE, mark-as-read); on by default only for the built-in reference' })
    .option('report-dir', { type: 'string', default: 'conformance-report', describe: 'Directory for report.json, summary.md, junit.xml and report.html' })
    .option('vendor', { type: 'string', describe: 'Vendor word in header and media-type names: service or github' })
    .option('prefix', { type: 'string', describe: 'Path prefix of a self-hosted installation, e.g. /api/v3' })
    .option('max-requests', { type: 'number', default: 5000, describe: 'Stop (exit 4) before sending more requests than this' })
    .option('timeout', { type: 'number', default: 15, describe: 'Seconds the target may stay silent, before an answer or within it' })
    .option('total-timeout', { type: 'number', default: TOTAL_TIMEOUT_MS / 1000, describe: 'Seconds for each whole answer, body included' })
    .option('max-body', { type: 'number', default: DEFAULT_MAX_BODY_MB, describe: 'Largest answer body read, in MB; a larger one fails the check' })
    .option('max-wait', { type: 'number', default: DEFAULT_MAX_WAIT_S, describe: 'Longest wait in seconds the target may ask for (X-Poll-Interval, Retry-After, a rate-limit reset); a check asked to wait longer is skipped' })
    .option('max-total-wait', { type: 'number', default: DEFAULT_MAX_TOTAL_WAIT_S, describe: 'Seconds the run may wait in all at the target\'s request; once spent, checks asked to wait are skipped' })
    .option('list', { type: 'boolean', default: false, describe: 'Print the checks that would run, without sending a request' })
    .option('only-failed', { type: 'string', describe: 'Rerun only the failures recorded in an earlier report.json' })
    .option('baseline', { type: 'string', describe: 'An earlier report.json: mark checks newly failing, newly passing or unchanged' })
    .option('fail-on', { choices: ['any', 'new'] as const, default: 'any' as const, describe: 'Exit 1 on any unexpected failure, or only on failures new since --baseline' })
    .option('expectations', { type: 'string', describe: 'JSON {"expected-failures": {"<check id>": "<reason>"}} of known failures' })
    .option('quiet', { type: 'boolean', default: false, describe: 'No progress lines' });
}

type Args = Awaited<ReturnType<typeof runOptions>['argv']>;

/** `--profile reference` names the built-in reference's own profile instead of a file. */
export const BUILTIN_PROFILE = 'reference';

export function checkBaseUrl(url: string | undefined): void {
  if (url !== undefined && !/^https?:\/\/[^/]/.test(url)) throw new UserError(`--base-url must be an http(s) URL, got "${url}"`);
}

export async function runCommand(args: Args): Promise<void> {
  checkBaseUrl(args['base-url']);
  if (!Number.isInteger(args['max-requests']) || args['max-requests'] < 1) throw new UserError('--max-requests must be a positive integer');
  if (!(args.timeout > 0)) throw new UserError('--timeout must be a positive number of seconds');
  if (!(args['total-timeout'] > 0)) throw new UserError('--total-timeout must be a positive number of seconds');
  const maxBody = maxBodyBytes(args['max-body']);
  if (!(args['max-wait'] >= 0)) throw new UserError('--max-wait must be a number of seconds, 0 or more');
  if (!(args['max-total-wait'] >= 0)) throw new UserError('--max-total-wait must be a number of seconds, 0 or more');
  if (args.profile === BUILTIN_PROFILE && !args['base-url']) throw new UserError(`--profile ${BUILTIN_PROFILE} needs --base-url (with neither, the built-in reference itself is the target)`);
  const profile: Profile | undefined = args.profile === BUILTIN_PROFILE ? await referenceProfileAt(args['base-url']!, args.vendor)
    : args.profile ? loadProfile(args.profile) : undefined;
  const only = args['only-failed'] ? failedIn(args['only-failed']) : undefined;
  if (args['fail-on'] === 'new' && !args.baseline) throw new UserError('--fail-on new needs --baseline');
  const baseline = args.baseline ? { path: args.baseline, report: loadBaseline(args.baseline) } : undefined;
  const expectations = args.expectations ? loadExpectations(args.expectations) : undefined;

  if (args.list) {
    const planned = planChecks(profile ?? { base_url: args['base-url'] ?? 'http://embedded.invalid' }, { suites: args.suite, grep: args.grep, only });
    for (const { suite, spec } of planned) {
      const req = requirement(spec.requirement);
      process.stdout.write(`${spec.id} [${req.level}] [${suite.name}]${spec.writes ? ' (writes)' : ''}${spec.exhausts ? ' (opt-in)' : ''} ${spec.title}\n    "${req.sentence}" (document ${req.doc}, ${req.section})\n`);
    }
    process.stdout.write(`${planned.length} checks\n`);
    return;
  }

  const quiet = args.quiet;
  const journalFile = join(args['report-dir'], JOURNAL_FILE);
  if (existsSync(journalFile)) process.stderr.write(`conformance: warning: ${journalFile} holds changes an earlier run did not undo; undo them with \`conformance undo ${journalFile} --profile <its profile>\`\n`);
  // Ctrl-C ends the check in progress at once (its waits and requests); the changes are still undone and reported.
  const interrupt = new AbortController();
  const onSigint = () => {
    if (interrupt.signal.aborted) process.exit(EXIT.interrupted);
    process.stderr.write(`conformance: interrupted; undoing changes (Ctrl-C again to quit at once, leaving them in ${journalFile})\n`);
    interrupt.abort();
  };
  process.on('SIGINT', onSigint);
  let result: RunResult;
  try {
    result = await runConformance({
      ...(args['base-url'] ? { baseUrl: args['base-url'] } : {}), ...(profile ? { profile } : {}),
      ...(args.prefix !== undefined ? { prefix: args.prefix } : {}), ...(args.vendor ? { vendor: args.vendor } : {}),
      suites: args.suite, grep: args.grep, only, strict: args.strict, exhaustRateLimit: args['exhaust-rate-limit'],
      ...(args['allow-writes'] !== undefined ? { allowWrites: args['allow-writes'] } : {}),
      maxRequests: args['max-requests'], timeoutMs: args.timeout * 1000, totalTimeoutMs: args['total-timeout'] * 1000, maxBodyBytes: maxBody,
      maxWaitMs: args['max-wait'] * 1000, maxTotalWaitMs: args['max-total-wait'] * 1000, journalFile,
      onWait: quiet ? undefined : waitingLine(process.stderr),
      onCheck: quiet ? undefined : (check, i, total) => process.stderr.write(`${progressLine(check, i, total)}\n`),
      onNotices: (notices) => { for (const n of notices) process.stderr.write(`conformance: note: ${terminalText(n)}\n`); },
      signal: interrupt.signal,
    });
  } finally {
    process.off('SIGINT', onSigint);
  }
  const comparison = compare(result, baseline, expectations);
  const files = writeReports(result, args['report-dir'], comparison);
  // In a GitHub Actions job, the Markdown summary lands in the job summary.
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, readFileSync(files.find((f) => f.endsWith('summary.md'))!, 'utf8'));
  // A setup stopped before any check has nothing to summarize: its diagnosis is the one line below.
  if (result.checks.length) {
    process.stdout.write(consoleSummary(result));
    for (const line of comparisonLines(comparison)) process.stdout.write(`${line}\n`);
  }
  process.stdout.write(`reports: ${files.join(', ')}\n`);
  if (existsSync(journalFile)) process.stderr.write(`conformance: ${journalFile} keeps changes not undone; undo them with \`conformance undo ${journalFile} --profile <this run's profile>\`\n`);
  if (result.stopped) throw new UserError(result.stopped.message, STOP_EXIT[result.stopped.reason]);
  process.exitCode = gateExitCode(result, comparison, args['fail-on']);
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

function failedIn(path: string): string[] {
  let report: RunResult;
  try {
    report = JSON.parse(readFileSync(path, 'utf8')) as RunResult;
  } catch (err) {
    throw new UserError(`--only-failed ${path}: cannot read a report (${(err as Error).message.split('\n')[0]})`);
  }
  if (!Array.isArray(report.checks)) throw new UserError(`--only-failed ${path}: not a conformance report.json`);
  return report.checks.filter((c) => c.outcome === 'fail').map((c) => c.id);
}
