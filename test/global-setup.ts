/**
 * Every test's temporary files go to one folder of this run (TMPDIR, which os.tmpdir() reads and
 * the forked workers inherit), each test file's to a folder of its own in it (file-temp.ts); at the
 * end the run's folder must be empty: anything left behind fails the run, named. What test files
 * share (the whole run of helpers/whole-run.ts) lives in its `shared` folder, removed first.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-tests-'));
  process.env.TMPDIR = dir;
  process.env.CONFORMANCE_TEST_TMP = dir;
  const shared = join(dir, 'shared');
  mkdirSync(shared);
  process.env.CONFORMANCE_TEST_SHARED = shared;
  return () => {
    rmSync(shared, { recursive: true, force: true });
    const left = readdirSync(dir);
    rmSync(dir, { recursive: true, force: true });
    if (left.length) throw new Error(`tests left temporary files behind: ${left.join(', ')}`);
  };
}
