/**
 * Where a run writes: checked before the first request, so a wrong place costs a second, not a whole
 * run ending in a raw errno (or, under /proc, a write that never ends).
 */
import { appendFileSync, existsSync, mkdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { UserError } from '../../core/exit-codes.js';

/** Kernel views dressed as directories: a report written there is lost or never finishes. */
const NOT_DIRECTORIES = ['/proc', '/sys', '/dev'];

/** What an errno means for a directory the user named. */
const CAUSES: Record<string, string> = {
  EACCES: 'permission denied', EPERM: 'permission denied', EROFS: 'read-only file system', ENOSPC: 'no space left',
  ENOTDIR: 'a part of the path is a file', EEXIST: 'it is a file, not a directory', EISDIR: 'it is a directory', ENOENT: 'its directory does not exist',
  ENAMETOOLONG: 'name too long',
};

const cause = (err: unknown): string => {
  const code = (err as NodeJS.ErrnoException).code;
  return (code && CAUSES[code]) ?? code ?? (err as Error).message;
};

/** Creates the report directory if needed and proves it takes a file; a UserError names the path and why not. */
export function prepareReportDir(dir: string): void {
  const fail = (why: string): never => {
    throw new UserError(`--report-dir ${dir}: ${why}`);
  };
  const real = realOfNearest(resolve(dir));
  const inside = NOT_DIRECTORIES.find((root) => real === root || real.startsWith(`${root}/`));
  if (inside) fail(`under ${inside}, which holds no real files`);
  try {
    mkdirSync(dir, { recursive: true });
    if (!statSync(dir).isDirectory()) fail(CAUSES.EEXIST!);
    const probe = join(dir, `.conformance-probe-${process.pid}`);
    writeFileSync(probe, '');
    rmSync(probe);
  } catch (err) {
    if (err instanceof UserError) throw err;
    fail(cause(err));
  }
}

/** The path with its nearest existing ancestor's symbolic links resolved: a link into /proc is refused too. */
function realOfNearest(path: string): string {
  let existing = path;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  const real = realpathSync(existing);
  return path === existing ? real : join(real, path.slice(existing.length));
}

/**
 * The GitHub Actions job summary file, when `GITHUB_STEP_SUMMARY` names one that takes writes. A bad
 * one is a warning: the summary is a courtesy, and the run's verdict must not depend on it.
 */
export function stepSummaryFile(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const path = env.GITHUB_STEP_SUMMARY;
  if (!path) return undefined;
  try {
    appendFileSync(path, '');
    return path;
  } catch (err) {
    warnStepSummary(path, err);
    return undefined;
  }
}

export function warnStepSummary(path: string, err: unknown): void {
  process.stderr.write(`conformance: warning: GITHUB_STEP_SUMMARY ${path}: cannot write (${cause(err)}); the job summary is left out\n`);
}
