/**
 * A CLI run with writes against a reference started in-test (`url`: its API root, or a front's), caught while it waits: alerts.dismiss
 * dismisses an alert (journaled), then conditional.events-304 waits out the reference's X-Poll-Interval
 * (60 s, as the platform sends), so a test can interrupt or kill it mid-run.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JournalLine } from '../../core/journal.js';
import { startCli, type RunningCli } from './cli.js';
import { call } from './reference.js';

export interface WaitingRun {
  running: RunningCli;
  reportDir: string;
  journal: string;
  /** Path of the alert the run dismissed, as its journal names it. */
  alert: string;
}

export const journalLines = (file: string): JournalLine[] => readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as JournalLine);

export async function runUntilWaiting(url: string, dir: string): Promise<WaitingRun> {
  // --only-failed selects exactly these two checks, in run order.
  mkdirSync(dir, { recursive: true });
  const selection = join(dir, 'selection.json');
  writeFileSync(selection, JSON.stringify({ checks: ['alerts.dismiss', 'conditional.events-304'].map((id) => ({ id, outcome: 'fail' })) }));
  const reportDir = join(dir, 'report');
  const running = startCli(['--base-url', url, '--profile', 'reference', '--allow-writes', '--only-failed', selection, '--report-dir', reportDir]);
  await running.untilStderr('waiting 60 s', 30_000);
  const journal = join(reportDir, 'journal.jsonl');
  const change = journalLines(journal).find((l) => l.type === 'change');
  if (change?.type !== 'change') throw new Error(`no change journaled in ${journal}`);
  return { running, reportDir, journal, alert: change.undo[0]!.path };
}

export const alertState = async (url: string, path: string): Promise<unknown> => (await call(url, path)).body?.state;
