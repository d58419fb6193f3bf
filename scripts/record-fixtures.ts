/**
 * Records the bundled cassette: the reference behind a recording proxy while the whole suite runs
 * through the proxy, writes included. `npm run fixtures:record` replaces fixtures/reference-full-run.
 * A replay of it must be run with the same profile (`referenceProfileAt`, `--profile reference`), so the same requests are sent.
 */
import { rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { createProxy } from '../proxy/server.js';
import { referenceProfile } from '../reference/profile.js';
import { startReference } from '../reference/server.js';
import { packagePath } from '../core/paths.js';
import { EMBEDDED_POLL_INTERVAL_SECONDS, runConformance } from '../src/runner.js';
import type { RunResult } from '../core/model.js';

export const BUNDLED_CASSETTE = packagePath('fixtures', 'reference-full-run');

/** A full run (writes allowed, as against the embedded reference) recorded into `dir`, replacing what it held. */
export async function recordFullRun(dir: string): Promise<RunResult> {
  rmSync(dir, { recursive: true, force: true });
  const reference = await startReference({ port: 0, pollIntervalSeconds: EMBEDDED_POLL_INTERVAL_SECONDS });
  try {
    const proxy = await createProxy({ mode: 'record', target: reference.url, fixtures: dir });
    try {
      return await runConformance({ profile: { ...referenceProfile(reference), base_url: proxy.url }, allowWrites: true });
    } finally {
      await proxy.close();
    }
  } finally {
    await reference.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await recordFullRun(BUNDLED_CASSETTE);
  const { pass, fail, skip } = result.counts;
  process.stdout.write(`${BUNDLED_CASSETTE}: ${result.requests.total} requests recorded; ${pass} passed, ${fail} failed, ${skip} skipped\n`);
  if (fail) process.exitCode = 1;
}
