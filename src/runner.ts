/**
 * Runs suites against a target: resolves the profile (or starts the embedded reference),
 * diagnoses setup problems once, runs each check through the one client, and returns the
 * structured result. `runConformance` is the programmatic API.
 */
import { requirement } from '../spec/requirements/index.js';
import { vendorNames } from '../spec/vendor.js';
import { referenceProfile } from '../reference/profile.js';
import { startReference, type RunningReference } from '../reference/server.js';
import { SUITES } from '../suites/index.js';
import { BudgetExhausted, Client, TargetUnreachable } from './client.js';
import { Journal } from './journal.js';
import { OUTCOMES, type CheckResult, type Outcome, type RunResult } from './model.js';
import { profileSecrets, type Profile } from './profile.js';
import { CheckContext, SkipSignal, type CheckSpec, type Suite } from './suite.js';

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
  /** Allow checks that write. Defaults to true against the embedded reference (it is disposable), false elsewhere. */
  allowWrites?: boolean;
  /** Report fields the spec does not describe (as information). */
  strict?: boolean;
  /** Run the check that spends the anonymous search window to see the refusal. */
  exhaustRateLimit?: boolean;
  maxRequests?: number;
  timeoutMs?: number;
  /** Faults for the embedded reference (self-tests). */
  referenceFaults?: string[];
  onCheck?: (result: CheckResult, index: number, total: number) => void;
  /** Aborting skips the remaining checks; what was changed is still undone and reported. */
  signal?: AbortSignal;
}

export interface PlannedCheck {
  suite: Suite;
  spec: CheckSpec;
}

export function planChecks(profile: Profile, opts: Pick<RunOptions, 'suites' | 'grep' | 'only'>): PlannedCheck[] {
  const known = SUITES.map((s) => s.name);
  const unknown = (opts.suites ?? []).filter((s) => !known.includes(s));
  if (unknown.length) throw new Error(`unknown suite ${unknown.join(', ')} (suites: ${known.join(', ')})`);
  const grep = opts.grep?.toLowerCase();
  const planned = SUITES.filter((s) => !opts.suites?.length || opts.suites.includes(s.name))
    .flatMap((suite) => suite.checks(profile).map((spec) => ({ suite, spec })))
    .filter(({ spec }) => !grep || spec.id.toLowerCase().includes(grep) || spec.title.toLowerCase().includes(grep))
    .filter(({ spec }) => !opts.only || opts.only.includes(spec.id));
  for (const { spec } of planned) requirement(spec.requirement);
  return planned;
}

/** The embedded reference's X-Poll-Interval: one second keeps the run quick while the client still obeys it. */
export const EMBEDDED_POLL_INTERVAL_SECONDS = 1;

export async function runConformance(given: RunOptions = {}): Promise<RunResult> {
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
  const client = new Client({ profile, names, timeoutMs: options.timeoutMs ?? 15_000, maxRequests: options.maxRequests ?? 5_000 }, profileSecrets(profile));
  const result: RunResult = {
    formatVersion: 1,
    target: { baseUrl: client.redact(profile.base_url), prefix: profile.prefix ?? '', vendor: names.word, embeddedReference: !!embedded },
    startedAt: new Date(started).toISOString(),
    durationMs: 0,
    counts: Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>,
    checks: [],
    requests: { total: 0, byCategory: client.byCategory },
    transcript: client.transcript,
    restoration: { restored: 0, leaks: [] },
  };
  const journal = new Journal();
  try {
    const planned = planChecks(profile, options);
    const setup = await diagnose(client, profile);
    if (setup.stop) result.stopped = setup.stop;
    for (const [index, { suite, spec }] of planned.entries()) {
      const check = await runCheck(suite, spec, client, profile, options, result.stopped, setup.missing, journal);
      if (check.skipReason === 'budget-exhausted' && !result.stopped) result.stopped = { reason: 'budget-exhausted', message: check.message };
      result.checks.push(check);
      result.counts[check.outcome] += 1;
      options.onCheck?.(check, index, planned.length);
    }
  } finally {
    // Undo what the writing checks changed, newest first, even after a failure.
    await journal.unwind().catch(() => undefined);
    client.take();
    result.restoration = { restored: journal.restored, leaks: journal.leaks.map((l) => ({ ...l, change: client.redact(l.change) })) };
    await embedded?.close();
  }
  result.requests.total = client.count;
  result.durationMs = Date.now() - started;
  return result;
}

interface Setup {
  stop?: RunResult['stopped'];
  /** Profile resources that the target does not have, with why. */
  missing: Map<string, string>;
}

/** One look at the target before any check: reachable, speaking JSON, accepting the profile's credentials. */
async function diagnose(client: Client, profile: Profile): Promise<Setup> {
  const missing = new Map<string, string>();
  const tokenNames = Object.keys(profile.tokens ?? {}).filter((n) => n !== 'invalid') as (keyof NonNullable<Profile['tokens']>)[];
  try {
    const probe = await client.send({ path: '/rate_limit', as: null });
    if (probe.jsonError && probe.status !== 404) {
      return { missing, stop: { reason: 'unreachable', message: `${profile.base_url} does not answer like this API: GET /rate_limit ${probe.jsonError}` } };
    }
    if (tokenNames.length) {
      let accepted = 0;
      for (const name of tokenNames) if ((await client.send({ path: '/rate_limit', as: name })).status !== 401) accepted += 1;
      if (!accepted) return { missing, stop: { reason: 'credentials-rejected', message: `every token of the profile is rejected with 401 (${tokenNames.join(', ')})` } };
    }
    const repo = profile.resources?.public_repo;
    if (repo) {
      const r = await client.send({ path: `/repos/${repo}/events?per_page=1`, as: tokenNames.includes('classic') ? 'classic' : null });
      if (r.status === 404) missing.set('public_repo', `${repo} does not exist on the target (GET /repos/${repo}/events answered 404)`);
    }
  } catch (err) {
    if (err instanceof TargetUnreachable) return { missing, stop: { reason: 'unreachable', message: err.message } };
    if (err instanceof BudgetExhausted) return { missing, stop: { reason: 'budget-exhausted', message: err.message } };
    throw err;
  }
  client.take();
  return { missing };
}

async function runCheck(
  suite: Suite, spec: CheckSpec, client: Client, profile: Profile, options: RunOptions,
  stopped: RunResult['stopped'], missing: Map<string, string>, journal: Journal,
): Promise<CheckResult> {
  const req = requirement(spec.requirement);
  const base = {
    id: spec.id, suite: suite.name, title: spec.title,
    requirement: { id: req.id, level: req.level, doc: req.doc, section: req.section, sentence: req.sentence },
  };
  const started = Date.now();
  const finish = (outcome: Outcome, message: string, t?: CheckContext, skipReason?: CheckResult['skipReason']): CheckResult => ({
    ...base, outcome, ...(skipReason ? { skipReason } : {}), message: client.redact(message),
    findings: t ? [...t.failures, ...t.warnings, ...t.unjudged, ...t.notes].map((f) => ({ ...f, message: client.redact(f.message) })) : [],
    exchanges: client.take(), durationMs: Date.now() - started,
  });
  if (stopped) {
    const reason = stopped.reason === 'budget-exhausted' ? 'budget-exhausted' : 'setup-failed';
    return finish('skip', stopped.message, undefined, reason);
  }
  if (options.signal?.aborted) return finish('skip', 'the run was interrupted before this check', undefined, 'interrupted');
  const token = spec.needs?.tokens?.find((n) => !profile.tokens?.[n]);
  if (token) return finish('skip', `the profile names no token "${token}"`, undefined, 'missing-token');
  const resource = spec.needs?.resources?.find((r) => profile.resources?.[r] === undefined);
  if (resource) return finish('skip', `the profile names no resource "${resource}"`, undefined, 'missing-resource');
  const absent = spec.needs?.resources?.find((r) => missing.has(r));
  if (absent) return finish('skip', missing.get(absent)!, undefined, 'setup-failed');
  if (spec.exhausts && !options.exhaustRateLimit) return finish('skip', 'this check spends a rate-limit window; run with --exhaust-rate-limit', undefined, 'opt-in-required');
  if (spec.writes && !options.allowWrites) return finish('skip', 'this check writes to the target; run with --allow-writes', undefined, 'writes-not-allowed');

  const t = new CheckContext(spec, client, profile, vendorNames(profile.vendor ?? 'service'), journal, options.strict ?? false, options.allowWrites ?? false);
  try {
    await spec.run(t);
  } catch (err) {
    if (err instanceof SkipSignal) {
      // A failure seen before the check had to stop stands.
      if (!t.failures.length) return finish('skip', err.message, t, err.reason);
      t.info(`then stopped: ${err.message}`);
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
