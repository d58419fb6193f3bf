/**
 * Claim: a conformance run against a replaying proxy costs no more than one against the live
 * reference. A run is recorded through a proxy in record mode in front of the reference, replayed
 * once to check it is faithful (same outcome for every check, no unmatched request) and timed, then
 * one whole `runConformance` against the embedded reference is timed: one sample each, since a run
 * takes half a minute. Both include the client's pacing (X-Poll-Interval of 1 s while imports run).
 */
import { referenceProfile } from '../reference/profile.js';
import { startReference } from '../reference/server.js';
import { createProxy, type RunningProxy } from '../proxy/server.js';
import type { Profile } from '../core/profile.js';
import type { RunResult } from '../core/model.js';
import { EMBEDDED_POLL_INTERVAL_SECONDS, runConformance } from '../src/runner.js';
import { ratio, row, timed, type Row } from './harness.js';

export interface LiveReplayResult {
  rows: Row[];
  claims: string[];
  /** Why the comparison was not timed, when it was not. */
  skipped?: string;
}

/** What the embedded reference is started with by `runConformance` (src/runner.ts), so the recording answers alike. */
const REFERENCE = { port: 0, faults: [], vendor: 'service', pollIntervalSeconds: EMBEDDED_POLL_INTERVAL_SECONDS } as const;

export async function liveVsReplayBench(fixtures: string): Promise<LiveReplayResult> {
  // Record: the reference's own profile, pointed at the recording proxy.
  const reference = await startReference(REFERENCE);
  let profile: Profile;
  let recorded: RunResult;
  let recordedCount = 0;
  try {
    const recorder = await createProxy({ mode: 'record', target: reference.url, fixtures, port: 0 });
    try {
      profile = { ...referenceProfile(reference), base_url: recorder.origin };
      recorded = await runConformance({ profile, allowWrites: true });
    } finally {
      await recorder.close();
      recordedCount = recorder.stats.recorded;
    }
  } finally {
    await reference.close();
  }

  const replayRun = async (): Promise<{ ms: number; result: RunResult; proxy: RunningProxy }> => {
    // A fresh proxy per run: sequence positions and synthesized counters start over, as for a new client.
    const proxy = await createProxy({ mode: 'replay', fixtures, port: 0 });
    try {
      let result: RunResult | undefined;
      const ms = await timed(async () => {
        result = await runConformance({ profile: { ...profile, base_url: proxy.origin }, allowWrites: true });
      });
      return { ms, result: result!, proxy };
    } finally {
      await proxy.close();
    }
  };

  const check = await replayRun();
  const differing = differences(recorded, check.result);
  if (recorded.stopped || check.proxy.stats.unmatched > 0 || differing.length) {
    const why = [
      recorded.stopped ? `the recording run stopped (${recorded.stopped.reason})` : '',
      check.proxy.stats.unmatched ? `${check.proxy.stats.unmatched} replayed request(s) matched no fixture` : '',
      differing.length ? `${differing.length} check(s) replay with another outcome: ${differing.slice(0, 5).join(', ')}${differing.length > 5 ? ', …' : ''}` : '',
    ].filter(Boolean).join('; ');
    return { rows: [], claims: [], skipped: `replay vs live not timed: replay is not faithful to the recording (${why})` };
  }

  // Whole runs take half a minute each: the checked replay is the replay's sample, and one live run follows it.
  const live = await timed(() => runConformance({}));
  const pair = [row('full run', 'live reference', [live], 1), row('full run', 'replaying proxy', [check.ms], 1)] as const;
  const checks = recorded.checks.length;
  return {
    rows: [...pair],
    claims: [
      `replay vs live: runConformance over a replaying proxy vs the embedded reference = ${ratio(pair[1], pair[0])} time`
      + ` (${checks} checks, ${recorded.requests.total} requests, ${recordedCount} recorded interactions; both wait out the same poll intervals)`,
    ],
  };
}

/**
 * Checks that replay judges otherwise by design: GET /rate_limit answers from the proxy's own
 * counters without validators, so its 304 check has nothing to judge (as test/proxy/bundled-cassette.test.ts states).
 */
const REPLAY_SYNTHESIZED = new Set(['conditional.rate-limit-304']);

/** Check ids whose outcome differs between two runs (or that only one of them has). */
function differences(a: RunResult, b: RunResult): string[] {
  const outcomes = new Map(a.checks.map((c) => [c.id, c.outcome]));
  const out = b.checks.filter((c) => outcomes.get(c.id) !== c.outcome && !REPLAY_SYNTHESIZED.has(c.id)).map((c) => `${c.id} (${outcomes.get(c.id) ?? 'absent'} → ${c.outcome})`);
  const seen = new Set(b.checks.map((c) => c.id));
  return [...out, ...a.checks.filter((c) => !seen.has(c.id)).map((c) => `${c.id} (${c.outcome} → absent)`)];
}
