/**
 * `conformance merge`: the reports of the shards of one run (`--shard i/n`) joined into the result
 * that run would have had unsharded: checks in run order, counts, requests per category, notices,
 * changes undone, the transcript (exchange ids renumbered so each check still points at its own).
 * A set that is not one whole run (a shard missing or twice, another n, target, version or selection,
 * a check in two reports) is refused with one line: its totals would be wrong.
 */
import { UserError } from '../core/exit-codes.js';
import { OUTCOMES, type CheckResult, type Outcome, type RunResult, type ShardRecord } from '../core/model.js';
import { shardLabel } from '../core/shard.js';

export interface ShardReport {
  path: string;
  report: RunResult;
}

type Sharded = ShardReport & { shard: ShardRecord };

export function mergeShards(inputs: ShardReport[]): RunResult {
  const shards = checkedSet(inputs);
  const first = shards[0]!.report;
  let offset = 0;
  const placed: { position: number; check: CheckResult }[] = [];
  const transcript: RunResult['transcript'] = [];
  for (const { report, shard } of shards) {
    // Each shard numbered its exchanges from 1: shift them past the shards before it.
    const shift = offset;
    report.checks.forEach((check, i) => placed.push({ position: shard.positions[i]!, check: { ...check, exchanges: check.exchanges.map((id) => id + shift) } }));
    transcript.push(...report.transcript.map((e) => ({ ...e, id: e.id + shift })));
    offset += Math.max(0, ...report.transcript.map((e) => e.id), ...report.checks.flatMap((c) => c.exchanges));
  }
  const checks = placed.sort((a, b) => a.position - b.position).map((p) => p.check);
  const counts = Object.fromEntries(OUTCOMES.map((o) => [o, checks.filter((c) => c.outcome === o).length])) as Record<Outcome, number>;
  const byCategory: Record<string, number> = {};
  for (const { report } of shards) for (const [category, n] of Object.entries(report.requests.byCategory)) byCategory[category] = (byCategory[category] ?? 0) + n;
  const kept = shards.map((s) => s.report.transcriptKept).filter((k) => k !== undefined);
  const starts = shards.map((s) => Date.parse(s.report.startedAt));
  const ends = shards.map((s, i) => starts[i]! + s.report.durationMs);
  const stopped = stopOf(shards, checks);
  return {
    formatVersion: 1,
    ...(first.version !== undefined ? { version: first.version } : {}),
    target: first.target,
    startedAt: new Date(Math.min(...starts)).toISOString(),
    // From the first shard's start to the last one's end: the wall time of shards run side by side or one after another.
    durationMs: Math.max(...ends) - Math.min(...starts),
    counts,
    checks,
    requests: { total: shards.reduce((n, s) => n + s.report.requests.total, 0), byCategory },
    transcript,
    ...(kept.length ? { transcriptKept: { scope: 'failing' as const, omitted: kept.reduce((n, k) => n + k.omitted, 0), bodyChars: kept[0]!.bodyChars } } : {}),
    restoration: {
      restored: shards.reduce((n, s) => n + s.report.restoration.restored, 0),
      leaks: shards.flatMap((s) => s.report.restoration.leaks),
    },
    // Every shard probes the same target, so each says the same setup notes: once is enough.
    notices: [...new Set(shards.flatMap((s) => s.report.notices ?? []))],
    ...(stopped ? { stopped } : {}),
  };
}

/**
 * Why the merged run stopped: a shard's stop (the first, by shard number), but "nothing checked" only
 * when it holds for the merged checks, as it would for one run.
 */
function stopOf(shards: Sharded[], checks: CheckResult[]): RunResult['stopped'] {
  const stops = shards.filter((s) => s.report.stopped).map((s) => ({ ...s.report.stopped!, message: `shard ${shardLabel(s.shard)}: ${s.report.stopped!.message}` }));
  const judged = checks.some((c) => c.outcome === 'pass' || c.outcome === 'fail' || c.outcome === 'warn');
  return stops.find((s) => s.reason !== 'nothing-checked') ?? (judged ? undefined : stops[0]);
}

/** The inputs as shards of one run, in shard order; a UserError names the first reason they are not. */
function checkedSet(inputs: ShardReport[]): Sharded[] {
  const refuse = (why: string): never => {
    throw new UserError(`merge: ${why}`);
  };
  const shards = inputs.map(({ path, report }) => {
    const shard = report.shard;
    if (!isShardRecord(shard, report.checks.length)) return refuse(`${path} is not the report of a shard (run with --shard i/n)`);
    return { path, report, shard };
  });
  const [first] = shards;
  if (!first) return refuse('no report given: name the report.json of every shard of one run');
  const sameTarget = (a: RunResult['target'], b: RunResult['target']) => a.prefix === b.prefix && a.vendor === b.vendor && a.embeddedReference === b.embeddedReference
    // Each shard starts a built-in reference of its own, on a port of its own.
    && (a.embeddedReference || a.baseUrl === b.baseUrl);
  const describeTarget = (t: RunResult['target']) => (t.embeddedReference ? 'the built-in reference' : `${t.baseUrl}${t.prefix}`) + ` (vendor ${t.vendor})`;
  for (const s of shards.slice(1)) {
    if (s.shard.count !== first.shard.count) refuse(`${s.path} is shard ${shardLabel(s.shard)}, ${first.path} is shard ${shardLabel(first.shard)}: the shards of one run share n`);
    if (s.report.version !== first.report.version) refuse(`${s.path} was written by conformance ${s.report.version ?? '(unknown)'}, ${first.path} by ${first.report.version ?? '(unknown)'}: versions may split differently`);
    if (!sameTarget(s.report.target, first.report.target)) refuse(`${s.path} ran against ${describeTarget(s.report.target)}, ${first.path} against ${describeTarget(first.report.target)}`);
    if (s.shard.selected !== first.shard.selected) {
      refuse(`${s.path} selected ${s.shard.selected} checks, ${first.path} ${first.shard.selected}: run every shard with the same profile, --suite and --grep`);
    }
  }
  const byIndex = new Map<number, Sharded>();
  for (const s of shards) {
    const twice = byIndex.get(s.shard.index);
    if (twice) refuse(`${twice.path} and ${s.path} are both shard ${shardLabel(s.shard)}`);
    byIndex.set(s.shard.index, s);
  }
  const missing = Array.from({ length: first.shard.count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length) refuse(`shard ${missing.map((i) => `${i}/${first.shard.count}`).join(', ')} missing (given: ${[...byIndex.keys()].sort((a, b) => a - b).map((i) => `${i}/${first.shard.count}`).join(', ')})`);
  const holder = new Map<string, string>();
  const places = new Set<number>();
  for (const s of shards) {
    for (const [i, c] of s.report.checks.entries()) {
      const other = holder.get(c.id);
      if (other) refuse(`check ${c.id} is in both ${other} and ${s.path}`);
      holder.set(c.id, s.path);
      if (places.has(s.shard.positions[i]!)) refuse(`${s.path}: check ${c.id} takes a place in the run order another report's check has`);
      places.add(s.shard.positions[i]!);
    }
  }
  // A shard stopped before its checks (its setup broken) has none: the merged report says so, as one run would.
  const whole = shards.every((s) => !s.report.stopped || s.report.checks.length);
  if (whole && holder.size !== first.shard.selected) refuse(`the reports hold ${holder.size} of the ${first.shard.selected} checks their run selected`);
  return [...byIndex.values()].sort((a, b) => a.shard.index - b.shard.index);
}

function isShardRecord(shard: unknown, checks: number): shard is ShardRecord {
  const s = shard as Partial<ShardRecord> | undefined;
  const whole = (n: unknown, min: number): n is number => Number.isInteger(n) && (n as number) >= min;
  return !!s && whole(s.count, 1) && whole(s.index, 1) && s.index! <= s.count! && whole(s.selected, 0)
    && Array.isArray(s.positions) && s.positions.length === checks && s.positions.every((p) => whole(p, 0) && p < s.selected!);
}
