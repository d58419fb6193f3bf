/** `conformance merge r1.json r2.json ...`: the shards' reports of one run, as the reports and exit code of that run unsharded. */
import type { Argv } from 'yargs';
import { loadReport } from '../../reports/gate.js';
import { mergeShards } from '../../reports/merge.js';
import { terminalText } from '../../core/inert.js';
import { UserError } from '../../core/exit-codes.js';
import { MAX_SHARDS } from '../../core/shard.js';
import { prepareReportDir, stepSummaryFile } from './outputs.js';
import { loadGate, publish } from './verdict.js';
import { verdictOptions } from './verdict-options.js';

export function mergeOptions(y: Argv) {
  return verdictOptions(y)
    .positional('reports', { type: 'string', array: true, default: [] as string[], describe: 'The report.json of every shard of one run' });
}

type Args = Awaited<ReturnType<typeof mergeOptions>['argv']>;

export function mergeCommand(args: Args): void {
  // Shards are at most MAX_SHARDS: more files cannot be one run, and are not read.
  if (args.reports.length > MAX_SHARDS) throw new UserError(`merge: ${args.reports.length} reports given; a run has at most ${MAX_SHARDS} shards`);
  const inputs = args.reports.map((path) => ({ path, report: loadReport(path, 'merge') }));
  const gate = loadGate(args);
  const merged = mergeShards(inputs);
  prepareReportDir(args['report-dir']);
  const summaryFile = stepSummaryFile();
  const sayNotices = () => {
    for (const n of merged.notices) process.stderr.write(`conformance: note: ${terminalText(n)}\n`);
  };
  // The shards' reports already hold only the exchanges their --transcripts kept: written as they are.
  publish(merged, { reportDir: args['report-dir'], gate, transcripts: 'all', summaryFile, strict: false, sayNotices });
}
