/**
 * examples/vitest as its user runs it: `vitest run` in a child process, in a folder holding a copy
 * of the example, with the verbose reporter (its output, annotations too) and the JSON one (the tests); the calling
 * run's own VITEST* variables and colours stay out of it.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { packagePath } from '../../core/paths.js';

export interface ExampleTest { ancestorTitles: string[]; title: string; status: string; failureMessages: string[] }
/** One test file of the run: `message` is the error that failed it as a whole (at collection, or in a hook). */
export interface ExampleFile { name: string; status: string; message: string; tests: ExampleTest[] }

export function copyExample(dir: string): void {
  cpSync(packagePath('examples', 'vitest'), dir, { recursive: true });
}

/** `vitest run` in `dir` (the example, or a test file beside it), with vitest as `vitestBin` (the one its node_modules resolves). */
export function runVitest(dir: string, vitestBin: string, env: Record<string, string> = {}): { status: number | null; tests: ExampleTest[]; files: ExampleFile[]; output: string } {
  const own = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'FORCE_COLOR'));
  const outputFile = join(dir, `report-${Object.values(env).join('-') || 'clean'}.json`);
  const child = spawnSync(process.execPath, [vitestBin, 'run', '--reporter=verbose', '--reporter=json', `--outputFile.json=${outputFile}`], {
    cwd: dir, env: { ...own, NO_COLOR: '1', ...env }, encoding: 'utf8', timeout: 240_000,
  });
  const output = `${child.stdout}${child.stderr}`;
  let report: { testResults: { name: string; status: string; message: string; assertionResults: ExampleTest[] }[] };
  try {
    report = JSON.parse(readFileSync(outputFile, 'utf8')) as typeof report;
  } catch {
    throw new Error(`vitest wrote no report (exit ${child.status}):\n${output.slice(-4000)}`);
  }
  const files = report.testResults.map((r) => ({ name: relative(dir, r.name), status: r.status, message: r.message, tests: r.assertionResults }));
  return { status: child.status, tests: files.flatMap((f) => f.tests), files, output };
}
