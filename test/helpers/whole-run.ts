/**
 * Whole runs that several test files judge, made once per vitest run: the first file to ask for one
 * makes it and writes it, whole, to the run's shared folder (global-setup.ts); the others wait for
 * that file. A whole run costs seconds of CPU, and several files judged one each.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { RunResult } from '../../core/model.js';
import { profileSecrets } from '../../core/profile.js';
import { referenceProfile } from '../../reference/profile.js';
import { startReference } from '../../reference/server.js';
import { runConformance } from '../../src/runner.js';

/** Longer than a whole run takes on a loaded machine, within the hook timeout (vitest.config.ts). */
const WAIT_MS = 240_000;

/** The default embedded run (`runConformance()`: every suite against the embedded reference, writes on). */
export const wholeRun = (): Promise<RunResult> => sharedRun('whole-run', () => runConformance());

/** The fault whose run the report tests judge: search.max-operators fails, nothing else does. */
export const REPORTED_FAULT = 'search-issues-operators-unlimited';

/**
 * Every suite, writes on, against a reference of its own with REPORTED_FAULT and a 1 s poll interval;
 * with the secrets of that reference's profile, which the run sent.
 */
export const reportedRun = (): Promise<{ result: RunResult; secrets: string[] }> => sharedRun(`run-with-${REPORTED_FAULT}`, async () => {
  const ref = await startReference({ port: 0, faults: [REPORTED_FAULT], pollIntervalSeconds: 1 });
  try {
    const profile = referenceProfile(ref);
    return { result: await runConformance({ profile, allowWrites: true }), secrets: profileSecrets(profile) };
  } finally {
    await ref.close();
  }
});

/** What `make` makes, made by the first test file to ask for `name` in this vitest run. */
async function sharedRun<T>(name: string, make: () => Promise<T>): Promise<T> {
  const shared = process.env.CONFORMANCE_TEST_SHARED;
  if (!shared) throw new Error('CONFORMANCE_TEST_SHARED is not set: run the tests through vitest (test/global-setup.ts sets it)');
  const file = join(shared, `${name}.json`);
  const failed = join(shared, `${name}.error`);
  let maker = true;
  try {
    mkdirSync(join(shared, `${name}.lock`));
  } catch {
    maker = false;
  }
  if (maker) {
    try {
      const result = await make();
      writeFileSync(`${file}.tmp`, JSON.stringify(result));
      renameSync(`${file}.tmp`, file);
    } catch (err) {
      writeFileSync(failed, String((err as Error).stack ?? err));
      throw err;
    }
  }
  for (const started = Date.now(); Date.now() - started < WAIT_MS; await delay(200)) {
    const made = readIfThere(file);
    if (made) return JSON.parse(made) as T;
    const error = readIfThere(failed);
    if (error) throw new Error(`the shared run ${name} failed in another test file: ${error}`);
  }
  throw new Error(`the shared run ${name} was not written within ${WAIT_MS / 1000} s (${file})`);
}

function readIfThere(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
