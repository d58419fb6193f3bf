/**
 * The bundled cassette (fixtures/reference-full-run, `npm run fixtures:record`): a run against the
 * proxy replaying it passes exactly the checks a run against the reference passes, and opens no
 * connection to anything but the proxy; a second run on that proxy, from the command line, passes
 * too. A cassette recorded long ago replays as well as a fresh one.
 */
import { execFile } from 'node:child_process';
import dc from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INDEX_FILE, META_FILE } from '../../proxy/cassette.js';
import { createProxy } from '../../proxy/server.js';
import { referenceProfile, referenceProfileAt } from '../../reference/profile.js';
import { startReference } from '../../reference/server.js';
import { BUNDLED_CASSETTE } from '../../scripts/record-fixtures.js';
import type { RunResult } from '../../core/model.js';
import { packagePath } from '../../core/paths.js';
import { runConformance, type RunOptions } from '../../src/runner.js';
import { tempCassette } from './helpers.js';
import { wholeRun } from '../helpers/whole-run.js';

const ids = (r: RunResult, outcome: string) => r.checks.filter((c) => c.outcome === outcome).map((c) => c.id).sort();
const failures = (r: RunResult) => r.checks.filter((c) => c.outcome === 'fail').map((c) => `${c.id}: ${c.message}`);

type Proxy = Awaited<ReturnType<typeof createProxy>>;

/** Runs against a replaying proxy, noting the port of every TCP connection opened meanwhile. */
async function replayRun(proxy: Proxy, options: Omit<RunOptions, 'profile'> = {}): Promise<{ result: RunResult; foreign: number[] }> {
  const profile = await referenceProfileAt(proxy.url);
  const foreign: number[] = [];
  const onSocket = (message: unknown) => {
    const { socket } = message as { socket: Socket };
    socket.once('connect', () => {
      if (socket.remotePort !== proxy.port) foreign.push(socket.remotePort ?? -1);
    });
  };
  dc.subscribe('net.client.socket', onSocket);
  try {
    return { result: await runConformance({ ...options, profile, allowWrites: true }), foreign };
  } finally {
    dc.unsubscribe('net.client.socket', onSocket);
  }
}

// One test at a time: a replaying proxy in this process would be starved by a whole run beside it.
// Both runs replay on one proxy, the second after the first: each run is a session of its own.
describe('the bundled cassette', () => {
  let proxy: Proxy;
  beforeAll(async () => {
    proxy = await createProxy({ mode: 'replay', fixtures: BUNDLED_CASSETTE });
  });
  afterAll(() => proxy?.close());
  const stale = 'the bundled cassette no longer matches the suite: re-record it with `npm run fixtures:record`';

  it('replayed, passes the same checks as the reference, with no connection to any upstream', async () => {
    const live = await wholeRun();
    const { result, foreign } = await replayRun(proxy);
    expect(failures(result), stale).toEqual([]);
    expect(proxy.stats.unmatched, stale).toBe(0);
    // The replaying proxy answers GET /rate_limit from its own counters (which move with every request)
    // and synthesizes no validator there, so the check of a 304 on it has nothing to judge in replay.
    const REPLAY_SYNTHESIZED = ['conditional.rate-limit-304'];
    expect(ids(result, 'pass')).toEqual(ids(live, 'pass').filter((id) => !REPLAY_SYNTHESIZED.includes(id)));
    for (const id of REPLAY_SYNTHESIZED) expect(result.checks.find((c) => c.id === id)?.outcome).toBe('skip');
    expect(ids(result, 'pass').length).toBeGreaterThan(100);
    expect(foreign).toEqual([]);
  }, 300_000);

  it('passes again from the command line on the same replaying proxy, with --profile reference', async () => {
    const reports = mkdtempSync(join(tmpdir(), 'replay-cli-'));
    const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(process.execPath, [packagePath('bin', 'conformance.js'), '--base-url', proxy.url, '--profile', 'reference', '--allow-writes', '--quiet', '--report-dir', reports],
        (err, out) => resolve({ code: err ? Number(err.code) : 0, stdout: out }));
    });
    expect(code, stdout).toBe(0);
    expect(stdout).toMatch(/\b0 failed\b/);
    expect(proxy.stats.unmatched, stale).toBe(0);
  }, 300_000);
});

describe('replay of a cassette recorded long ago', () => {
  it('judges recorded bodies by the recording\'s Date, while rate-limit resets follow the live clock', async () => {
    // A recording made 200 days ago: the reference's clock and the fixtures' recordedAt both that far back.
    const AGO = 200 * 86_400_000;
    const dir = tempCassette();
    const reference = await startReference({ port: 0, pollIntervalSeconds: 1, now: () => Date.now() - AGO });
    const recorder = await createProxy({ mode: 'record', target: reference.url, fixtures: dir });
    const suites = ['events', 'conditional', 'rate-limit'];
    try {
      await runConformance({ suites, profile: { ...referenceProfile(reference), base_url: recorder.url }, allowWrites: true });
    } finally {
      await recorder.close();
      await reference.close();
    }
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json') && f !== INDEX_FILE && f !== META_FILE)) {
      const interaction = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { recordedAt: string };
      interaction.recordedAt = new Date(Date.parse(interaction.recordedAt) - AGO).toISOString();
      writeFileSync(join(dir, file), JSON.stringify(interaction, null, 2));
    }
    const proxy = await createProxy({ mode: 'replay', fixtures: dir });
    try {
      const { result } = await replayRun(proxy, { suites });
      expect(failures(result)).toEqual([]);
      expect(proxy.stats.unmatched).toBe(0);
      expect(ids(result, 'pass')).toEqual(expect.arrayContaining(['events.age-90-days', 'events.public-delay', 'rate-limit.status-categories', 'conditional.events-304']));
    } finally {
      await proxy.close();
    }
  }, 300_000);
});
