/**
 * Runs suites against a target: resolves the profile (or starts the embedded reference),
 * probes the setup once (core/preflight.ts), runs each check through the one client, and returns the
 * structured result. `runConformance` is the programmatic API.
 */
import { requirement } from '../spec/requirements/index.js';
import { vendorNames } from '../spec/vendor.js';
import { referenceProfile } from '../reference/profile.js';
import { startReference, type RunningReference } from '../reference/server.js';
import { SUITES } from '../suites/index.js';
import { BudgetExhausted, Client, Interrupted, TargetUnreachable, WaitRefused, type Clock, type Wait } from '../core/client.js';
import { UserError } from '../core/exit-codes.js';
import { Journal, undoRequest } from '../core/journal.js';
import { preflight, unmetNeed, type Preflight } from '../core/preflight.js';
import { nothingChecked, tokenlessNotice } from './skips.js';
import { OUTCOMES, type CheckResult, type Outcome, type RunResult } from '../core/model.js';
import { profileSecrets, type Profile } from '../core/profile.js';
import { readPackageJson } from '../core/paths.js';
import { shardOf, splitUnit, type Shard } from '../core/shard.js';
import { CheckContext, SkipSignal, suiteOf, type CheckSpec, type Suite } from '../core/suite.js';
import { pollStarts, waitsFor, type Allowed, type PollStarts } from './interference.js';
import { Turns } from './turns.js';

export interface RunOptions {
  /** Target API root; omitted with no profile, the embedded reference is started. */
  baseUrl?: string;
  profile?: Profile;
  prefix?: string;
  vendor?: string;
  suites?: string[];
  /** Only checks whose id or title contains this text (case-insensitive). */
  grep?: string;
  /** Only these check ids (e.g. the failures of an earlier run). */
  only?: string[];
  /** Only this part of the selection (core/shard.ts); its report says which, for `conformance merge`. */
  shard?: Shard;
  /** Allow checks that write. Defaults to true against the embedded reference (it is disposable), false elsewhere. */
  allowWrites?: boolean;
  /** Report fields the spec does not describe (as information). */
  strict?: boolean;
  /** Run the check that spends the anonymous search window to see the refusal. */
  exhaustRateLimit?: boolean;
  maxRequests?: number;
  /** Longest silence of the target, per request. */
  timeoutMs?: number;
  /** Longest whole exchange, body included. */
  totalTimeoutMs?: number;
  /** Largest answer body read. */
  maxBodyBytes?: number;
  /** Longest single wait the target may ask for, and bound on all of them (see Client). */
  maxWaitMs?: number;
  maxTotalWaitMs?: number;
  /** Where each change is journaled before it is sent, so a run that dies can be undone (`conformance undo`). Not used for the embedded reference, which dies with the run. */
  journalFile?: string;
  /** Each wait the target asked for as the run starts waiting it out, and `undefined` when it is over. */
  onWait?: (wait: Wait | undefined) => void;
  /** The run's one clock (tests give a virtual one); the real one by default. */
  clock?: Clock;
  /** Faults for the embedded reference (self-tests). */
  referenceFaults?: string[];
  onCheck?: (result: CheckResult, index: number, total: number) => void;
  /** The setup problems found before the checks (also in the result's notices), as soon as they are known. */
  onNotices?: (notices: string[]) => void;
  /** Aborting ends the check in progress (its waits and requests) and skips the rest; what was changed is still undone and reported. */
  signal?: AbortSignal;
}

export interface PlannedCheck {
  /** The suite a user names and reports group by: the check id's prefix (see suiteOf). */
  suite: string;
  /** The scenario module that declares the check; the modules' order is the run order. */
  module: Suite;
  spec: CheckSpec;
  /** Its place among the selected checks, before --shard took its part. */
  position: number;
}

/** The checks a run runs: those selected, or with --shard its part of them (none, when other shards hold them all). */
export function planChecks(profile: Profile, opts: Pick<RunOptions, 'suites' | 'grep' | 'only' | 'shard'>): PlannedCheck[] {
  return inShard(selectChecks(profile, opts), opts.shard);
}

function inShard(selected: PlannedCheck[], shard: Shard | undefined): PlannedCheck[] {
  return shard ? selected.filter(({ module, spec }) => shardOf(splitUnit(module, spec), shard.count) === shard.index) : selected;
}

/** The checks --suite, --grep and --only-failed select, in run order. */
function selectChecks(profile: Profile, opts: Pick<RunOptions, 'suites' | 'grep' | 'only'>): PlannedCheck[] {
  const all = SUITES.flatMap((module) => module.checks(profile).map((spec) => ({ suite: suiteOf(spec.id), module, spec })));
  const known = [...new Set(all.map((c) => c.suite))].sort();
  const unknown = (opts.suites ?? []).filter((s) => !known.includes(s));
  if (unknown.length) throw new UserError(`unknown suite ${unknown.join(', ')} (suites: ${known.join(', ')})`);
  const grep = opts.grep?.toLowerCase();
  const planned = all.filter(({ suite }) => !opts.suites?.length || opts.suites.includes(suite))
    .filter(({ spec }) => !grep || spec.id.toLowerCase().includes(grep) || spec.title.toLowerCase().includes(grep))
    .filter(({ spec }) => !opts.only || opts.only.includes(spec.id));
  for (const { spec } of planned) requirement(spec.requirement);
  if (!planned.length) {
    const by = [
      opts.suites?.length ? `--suite ${opts.suites.join(',')}` : '', opts.grep !== undefined ? `--grep "${opts.grep}"` : '', opts.only ? `--only-failed (${opts.only.length} failures)` : '',
    ].filter(Boolean);
    throw new UserError(`nothing to run: ${by.join(' with ') || 'the selection'} selects no check (see --list)`);
  }
  return planned.map((check, position) => ({ ...check, position }));
}

/** The embedded reference's X-Poll-Interval: one second keeps the run quick while the client still obeys it. */
export const EMBEDDED_POLL_INTERVAL_SECONDS = 1;

export async function runConformance(given: RunOptions = {}): Promise<RunResult> {
  const { result, client } = await run(given);
  return client.redactResult(result);
}

async function run(given: RunOptions): Promise<{ result: RunResult; client: Client }> {
  let options = given;
  const started = Date.now();
  let embedded: RunningReference | undefined;
  let profile: Profile;
  if (!options.baseUrl && !options.profile) {
    embedded = await startReference({
      port: 0, faults: options.referenceFaults ?? [], vendor: options.vendor ?? 'service', pollIntervalSeconds: EMBEDDED_POLL_INTERVAL_SECONDS,
      ...(options.prefix ? { prefix: options.prefix } : {}),
    });
    profile = referenceProfile(embedded, options.vendor ?? 'service');
  } else {
    profile = structuredClone(options.profile ?? { base_url: options.baseUrl! });
    if (options.baseUrl) profile.base_url = options.baseUrl;
  }
  if (options.prefix !== undefined && !embedded) profile.prefix = options.prefix;
  options = { ...options, allowWrites: options.allowWrites ?? !!embedded };
  if (options.vendor) profile.vendor = options.vendor;
  const names = vendorNames(profile.vendor ?? 'service');
  const client = new Client({
    profile, names, timeoutMs: options.timeoutMs ?? 15_000, totalTimeoutMs: options.totalTimeoutMs, maxBodyBytes: options.maxBodyBytes, maxRequests: options.maxRequests ?? 5_000,
    ...(options.maxWaitMs !== undefined ? { maxWaitMs: options.maxWaitMs } : {}), ...(options.maxTotalWaitMs !== undefined ? { maxTotalWaitMs: options.maxTotalWaitMs } : {}),
    ...(options.signal ? { signal: options.signal } : {}), ...(options.onWait ? { onWait: options.onWait } : {}), ...(options.clock ? { clock: options.clock } : {}),
  }, profileSecrets(profile));
  const result: RunResult = {
    formatVersion: 1,
    version: readPackageJson<{ version: string }>('package.json').version,
    target: { baseUrl: client.redact(profile.base_url), prefix: profile.prefix ?? '', vendor: names.word, embeddedReference: !!embedded },
    startedAt: new Date(started).toISOString(),
    durationMs: 0,
    counts: Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>,
    notices: [],
    checks: [],
    requests: { total: 0, byCategory: client.byCategory },
    transcript: client.transcript,
    restoration: { restored: 0, leaks: [] },
  };
  const journal = new Journal(embedded ? undefined : options.journalFile, () => ({
    baseUrl: withoutUserinfo(profile.base_url), prefix: profile.prefix ?? '', vendor: profile.vendor ?? 'service', accept: client.accept, scheme: client.scheme,
  }));
  let planned: PlannedCheck[] = [];
  try {
    const selected = selectChecks(profile, options);
    planned = inShard(selected, options.shard);
    if (options.shard) result.shard = { ...options.shard, selected: selected.length, positions: [] };
    const found = await preflight(client, profile, names);
    if (found.stop) {
      // A broken setup is one diagnosis, not a skipped entry for every check.
      result.stopped = { ...found.stop, message: client.redact(found.stop.message) };
      return { result, client };
    }
    // Of the whole selection, so every shard says the same and a merge keeps one note, as one run has.
    const tokenless = tokenlessNotice(selected.map((p) => p.spec), profile);
    result.notices = [...found.notices, ...(tokenless ? [tokenless] : [])].map((n) => client.redact(n));
    if (result.notices.length) options.onNotices?.(result.notices);
    // Checks run in turns (src/turns.ts): a waiting check parks and the next ones run; results are reported in plan order.
    const turns = new Turns(client);
    const done: CheckResult[] = [];
    const begun = new Set<number>();
    const begin = async (index: number) => {
      const { suite, spec } = planned[index]!;
      begun.add(index);
      await turns.begin(index, !!spec.needs?.rateLimiting, async () => {
        const check = await runCheck(suite, spec, client, profile, options, result.stopped, found, journal);
        if (check.skipReason === 'budget-exhausted' && !result.stopped) result.stopped = { reason: 'budget-exhausted', message: check.message };
        done[index] = check;
      });
    };
    const report = () => {
      for (let index = result.checks.length; done[index]; index += 1) {
        result.checks.push(done[index]!);
        result.counts[done[index]!.outcome] += 1;
        options.onCheck?.(done[index]!, index, planned.length);
      }
    };
    const allowed: Allowed = { writes: !!options.allowWrites, exhausts: !!options.exhaustRateLimit };
    // A check begins once no parked check it could disturb, or be disturbed by, is left (src/interference.ts).
    const start = async (index: number) => {
      await turns.settle((parked) => waitsFor(planned[index]!.spec, planned[parked]!.spec, allowed));
      await begin(index);
    };
    let polling: PollStarts | undefined;
    for (const [index, { spec }] of planned.entries()) {
      if (begun.has(index)) continue;
      if (!spec.polls) await start(index);
      else if (!polling) {
        // The first polling check brings the others forward: their reads, and so their waits, come together;
        // those a write of its module could disturb begin right after that write (a polling check reached before is held).
        polling = pollStarts(planned, index, allowed);
        for (const poll of polling.now) await start(poll);
      }
      for (const poll of polling?.after.get(index) ?? []) await start(poll);
      report();
    }
    await turns.settle(() => true);
    report();
    const nothing = result.stopped || options.signal?.aborted ? undefined : nothingChecked(result.checks, profile);
    if (nothing) result.stopped = { reason: 'nothing-checked', message: client.redact(nothing) };
    if (options.signal?.aborted && !result.stopped) {
      const skipped = result.checks.filter((c) => c.skipReason === 'interrupted').length;
      result.stopped = { reason: 'interrupted', message: `interrupted (Ctrl-C): ${skipped} of ${planned.length} checks skipped` };
    }
  } finally {
    // Undo what the writing checks changed, newest first, even after a failure.
    await journal.unwind(async (step) => (await client.send(undoRequest(step))).status).catch(() => undefined);
    client.take();
    result.restoration = { restored: journal.restored, leaks: journal.leaks.map((l) => ({ ...l, change: client.redact(l.change) })) };
    await embedded?.close();
    // GET /rate_limit and exchanges that got no answer count against no category; named, so the categories add up to the total.
    const uncounted = client.count - Object.values(client.byCategory).reduce((n, c) => n + c, 0);
    result.requests = { total: client.count, byCategory: { ...client.byCategory, ...(uncounted ? { uncounted } : {}) } };
    result.durationMs = Date.now() - started;
    // Checks are reported in plan order, so the first ones planned are those with results.
    if (result.shard) result.shard.positions = planned.slice(0, result.checks.length).map((p) => p.position);
  }
  return { result, client };
}

async function runCheck(
  suite: string, spec: CheckSpec, client: Client, profile: Profile, options: RunOptions,
  stopped: RunResult['stopped'], found: Preflight, journal: Journal,
): Promise<CheckResult> {
  const req = requirement(spec.requirement);
  const base = {
    id: spec.id, suite, title: spec.title,
    requirement: { id: req.id, level: req.level, doc: req.doc, section: req.section, sentence: req.sentence },
  };
  const started = Date.now();
  const finish = (outcome: Outcome, message: string, t?: CheckContext, skipReason?: CheckResult['skipReason']): CheckResult => ({
    ...base, outcome, ...(skipReason ? { skipReason } : {}), message: client.redact(message),
    findings: t ? [...t.failures, ...t.warnings, ...t.unjudged, ...t.notes].map((f) => ({ ...f, message: client.redact(f.message) })) : [],
    exchanges: client.take(), durationMs: Date.now() - started,
  });
  if (stopped) return finish('skip', stopped.message, undefined, 'budget-exhausted');
  if (options.signal?.aborted) return finish('skip', 'the run was interrupted before this check', undefined, 'interrupted');
  const token = spec.needs?.tokens?.find((n) => !profile.tokens?.[n]);
  if (token) return finish('skip', `the profile names no token "${token}"`, undefined, 'missing-token');
  const resource = spec.needs?.resources?.find((r) => profile.resources?.[r] === undefined);
  if (resource) return finish('skip', `the profile names no resource "${resource}"`, undefined, 'missing-resource');
  const unmet = unmetNeed(spec.needs, found);
  if (unmet) return finish('skip', unmet.message, undefined, unmet.reason);
  if (spec.exhausts && !options.exhaustRateLimit) return finish('skip', 'this check spends a rate-limit window; run with --exhaust-rate-limit', undefined, 'opt-in-required');
  if (spec.writes && !options.allowWrites) return finish('skip', 'this check writes to the target; run with --allow-writes', undefined, 'writes-not-allowed');

  const anonymous = !!spec.needs?.anonymous && (!profile.tokens?.classic || found.tokens.has('classic'));
  const t = new CheckContext(spec, client, profile, vendorNames(profile.vendor ?? 'service'), journal, options.strict ?? false, options.allowWrites ?? false, anonymous, new Set(found.tokens.keys()));
  try {
    await spec.run(t);
  } catch (err) {
    const skip = err instanceof SkipSignal ? err
      : err instanceof Interrupted ? new SkipSignal('interrupted', err.message)
        : err instanceof WaitRefused ? new SkipSignal('wait-too-long', err.message) : undefined;
    if (skip) {
      // A failure seen before the check had to stop stands.
      if (!t.failures.length) return finish('skip', skip.message, t, skip.reason);
      t.info(`then stopped: ${skip.message}`);
    } else if (err instanceof BudgetExhausted) return finish('skip', err.message, t, 'budget-exhausted');
    else if (err instanceof TargetUnreachable) t.fail(err.message);
    else t.fail(`the check could not complete: ${(err as Error).message}`);
  }
  if (t.failures.length) return finish('fail', t.failures.map((f) => (f.path ? `${f.path}: ${f.message}` : f.message)).slice(0, 3).join('; '), t);
  if (t.warnings.length) return finish('warn', t.warnings.map((f) => (f.path ? `${f.path}: ${f.message}` : f.message)).slice(0, 3).join('; '), t);
  if (t.unjudged.length) return finish('skip', t.unjudged.map((f) => f.message).slice(0, 3).join('; '), t, 'inconclusive');
  if (spec.observes) return finish('info', t.notes.map((f) => f.message).join('; ') || 'observed', t);
  return finish('pass', t.notes.map((f) => f.message).join('; '), t);
}

/** A base URL as the journal keeps it: credentials in it stay out of the file. */
function withoutUserinfo(url: string): string {
  const u = new URL(url);
  u.username = '';
  u.password = '';
  return u.href.replace(/\/+$/, '');
}
