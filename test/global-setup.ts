/**
 * Every test's temporary files go to one folder of this run (TMPDIR, which os.tmpdir() reads and
 * the forked workers inherit); at the end it must be empty: a test that leaves files behind fails
 * the run, named by what it left.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-tests-'));
  process.env.TMPDIR = dir;
  return () => {
    const left = readdirSync(dir);
    rmSync(dir, { recursive: true, force: true });
    if (left.length) throw new Error(`tests left temporary files behind: ${left.join(', ')}`);
  };
}
