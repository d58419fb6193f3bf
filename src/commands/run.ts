/** The default command: run the suites against a target (or the embedded reference) and write reports. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { progressLine } from '../../reports/console.js';
import { terminalText } from '../../core/inert.js';
import { BUILTIN_PROFILE, referenceProfileAt } from '../../reference/profile.js';
import { requirement } from '../../spec/requirements/index.js';
import { EXIT, UserError } from '../../core/exit-codes.js';
import { JOURNAL_FILE } from '../../core/journal.js';
import type { RunResult } from '../../core/model.js';
import { shardLabel } from '../../core/shard.js';
import { loadProfile, type Profile } from '../../core/profile.js';
import { planChecks, runConformance } from '../runner.js';
import { prepareReportDir, stepSummaryFile } from './outputs.js';
import { loadGate, publish } from './verdict.js';
import type { RunArgs } from './run-options.js';
import { statusLine } from './status-line.js';

/** Runs the suites as the flags say (`--profile reference`: the built-in reference's own profile, asked of --base-url) and writes the reports. */
export async function runCommand(args: RunArgs): Promise<void> {
  // Before any request (the built-in profile asks the target): a wrong place to write costs a second, not a run.
  if (!args.list) prepareReportDir(args['report-dir']);
  const summaryFile = args.list ? undefined : stepSummaryFile();
  if (args.profile === BUILTIN_PROFILE && !args['base-url']) throw new UserError(`--profile ${BUILTIN_PROFILE} needs --base-url (with neither, the built-in reference itself is the target)`);
  const profile: Profile | undefined = args.profile === BUILTIN_PROFILE ? await referenceProfileAt(args['base-url']!, args.vendor)
    : args.profile ? loadProfile(args.profile, process.env, args['base-url']) : undefined;
  const only = args['only-failed'] ? failedIn(args['only-failed']) : undefined;
  const gate = loadGate(args);

  if (args.list) {
    const planned = planChecks(profile ?? { base_url: args['base-url'] ?? 'http://embedded.invalid' }, { suites: args.suite, grep: args.grep, only, shard: args.shard });
    for (const { suite, spec } of planned) {
      const req = requirement(spec.requirement);
      process.stdout.write(`${spec.id} [${req.level}] [${suite}]${spec.writes ? ' (writes)' : ''}${spec.exhausts ? ' (opt-in)' : ''} ${spec.title}\n    "${req.sentence}" (document ${req.doc}, ${req.section})\n`);
    }
    process.stdout.write(`${planned.length} checks\n`);
    return;
  }

  const quiet = args.quiet;
  const verbose = args.verbose && !quiet;
  // One line on a terminal says how far the run is and what it waits for; --quiet: none.
  const status = quiet ? undefined : statusLine(process.stderr);
  const say = (lines: string) => (status ? status.say(lines) : process.stderr.write(lines));
  let failed = 0;
  // Setup notices wait for the first check that runs (--verbose: the first line); if none runs, the run's one diagnosis says what they would.
  let notices: string[] = [];
  const sayNotices = () => {
    for (const n of notices) say(`conformance: note: ${terminalText(n)}\n`);
    notices = [];
  };
  const journalFile = join(args['report-dir'], JOURNAL_FILE);
  if (existsSync(journalFile)) process.stderr.write(`conformance: warning: ${journalFile} holds changes an earlier run did not undo; undo them with \`conformance undo ${journalFile} --profile <its profile>\`\n`);
  // Ctrl-C ends the check in progress at once (its waits and requests); the changes are still undone and reported.
  const interrupt = new AbortController();
  const onSigint = () => {
    if (interrupt.signal.aborted) process.exit(EXIT.interrupted);
    say(`conformance: interrupted; undoing changes (Ctrl-C again to quit at once, leaving them in ${journalFile})\n`);
    interrupt.abort();
  };
  process.on('SIGINT', onSigint);
  let result: RunResult;
  try {
    result = await runConformance({
      ...(args['base-url'] ? { baseUrl: args['base-url'] } : {}), ...(profile ? { profile } : {}),
      ...(args.prefix !== undefined ? { prefix: args.prefix } : {}), ...(args.vendor ? { vendor: args.vendor } : {}),
      suites: args.suite, grep: args.grep, only, ...(args.shard ? { shard: args.shard } : {}), strict: args.strict, exhaustRateLimit: args['exhaust-rate-limit'],
      ...(args['allow-writes'] !== undefined ? { allowWrites: args['allow-writes'] } : {}),
      maxRequests: args['max-requests'], timeoutMs: args.timeout * 1000, totalTimeoutMs: args['total-timeout'] * 1000, maxBodyBytes: args['max-body'],
      maxWaitMs: args['max-wait'] * 1000, maxTotalWaitMs: args['max-total-wait'] * 1000, journalFile,
      ...(status ? { onWait: status.wait } : {}),
      onCheck: (check, i, total) => {
        if (verbose || check.outcome !== 'skip') sayNotices();
        if (verbose) say(`${progressLine(check, i, total)}\n`);
        if (check.outcome === 'fail') failed += 1;
        status?.progress(i + 1, total, failed);
      },
      onNotices: (found) => { notices = found; },
      signal: interrupt.signal,
    });
  } finally {
    process.off('SIGINT', onSigint);
    status?.end();
  }
  if (result.shard && !result.checks.length && !result.stopped) {
    process.stderr.write(`conformance: shard ${shardLabel(result.shard)} holds none of the ${result.shard.selected} selected checks (the other shards run them)\n`);
  }
  const files = publish(result, { reportDir: args['report-dir'], gate, transcripts: args.transcripts, summaryFile, strict: args.strict, sayNotices });
  if (existsSync(journalFile)) process.stderr.write(`conformance: ${journalFile} keeps changes not undone; undo them with \`conformance undo ${journalFile} --profile <this run's profile>\`\n`);
  process.stdout.write(`next: open ${files.find((f) => f.endsWith('report.html'))}\n`);
}

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
