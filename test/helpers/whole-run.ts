/**
 * The default embedded run (`runConformance()`: every suite against the embedded reference, writes
 * on), made once per vitest run for the test files that judge it: the first file to ask makes it and
 * writes it, whole, to the run's shared folder (global-setup.ts); the others wait for that file. A
 * whole run costs seconds of CPU, and several files judged one each.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { RunResult } from '../../core/model.js';
import { runConformance } from '../../src/runner.js';

/** Longer than a whole run takes on a loaded machine, within the hook timeout (vitest.config.ts). */
const WAIT_MS = 240_000;

export async function wholeRun(): Promise<RunResult> {
  const shared = process.env.CONFORMANCE_TEST_SHARED;
  if (!shared) throw new Error('CONFORMANCE_TEST_SHARED is not set: run the tests through vitest (test/global-setup.ts sets it)');
  const file = join(shared, 'whole-run.json');
  const failed = join(shared, 'whole-run.error');
  let maker = true;
  try {
    mkdirSync(join(shared, 'whole-run.lock'));
  } catch {
    maker = false;
  }
  if (maker) {
    try {
      const result = await runConformance();
      writeFileSync(`${file}.tmp`, JSON.stringify(result));
      renameSync(`${file}.tmp`, file);
    } catch (err) {
      writeFileSync(failed, String((err as Error).stack ?? err));
      throw err;
    }
  }
  for (const started = Date.now(); Date.now() - started < WAIT_MS; await delay(200)) {
    const made = readIfThere(file);
    if (made) return JSON.parse(made) as RunResult;
    const error = readIfThere(failed);
    if (error) throw new Error(`the shared whole run failed in another test file: ${error}`);
  }
  throw new Error(`the shared whole run was not written within ${WAIT_MS / 1000} s (${file})`);
}

function readIfThere(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
