/** Writes the reports of a run into a directory, each file whole (temporary file, then rename). */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../core/fs-atomic.js';
import type { RunResult } from '../core/model.js';
import type { Comparison } from './gate.js';
import { htmlReport } from './html.js';
import { junitReport } from './junit.js';
import { markdownReport } from './markdown.js';
import { boundTranscript, type TranscriptScope } from './transcripts.js';

export function writeReports(run: RunResult, dir: string, comparison?: Comparison, transcripts: TranscriptScope = 'failing'): string[] {
  mkdirSync(dir, { recursive: true });
  const result = boundTranscript(run, transcripts);
  const files: [string, string][] = [
    ['report.json', `${JSON.stringify(comparison ? { ...result, comparison } : result, null, 2)}\n`],
    ['summary.md', markdownReport(result, comparison)],
    ['junit.xml', junitReport(result)],
    ['report.html', htmlReport(result, comparison)],
  ];
  for (const [name, text] of files) writeFileAtomic(join(dir, name), text);
  return files.map(([name]) => join(dir, name));
}
