/**
 * One look at the target before any check. A broken setup (unreachable, server errors or answers
 * that are not JSON, a wrong API root, every token refused) stops the run with one diagnosis; a
 * partial one (the recommended media type refused, rate limiting off, a token refused, a profile
 * resource absent) becomes one notice, and the checks that declare that need are skipped naming it.
 */
import type { VendorNames } from '../spec/vendor.js';
import { BudgetExhausted, Interrupted, TargetUnreachable, WaitRefused, type Client, type Reply } from './client.js';
import type { RunResult, SkipReason } from './model.js';
import type { Profile, TokenName } from './profile.js';
import type { CheckSpec } from './suite.js';

/** Public events: listed with 200 for anyone, and served whether rate limiting is on or off. */
export const PUBLIC_PROBE = '/events?per_page=1';
/** Rate-limit status: not counted against any limit, but 404 where rate limiting is off (a listed status). */
export const RATE_PROBE = '/rate_limit';
/** Document 1: "A self-hosted installation serves the same paths below its own host with the path prefix /api/v3." */
export const SELF_HOSTED_PREFIX = '/api/v3';
/** What the run asks for when the recommended media type is refused. */
const PLAIN_JSON = 'application/json';

/** Why the checks that need something cannot run. */
export interface Unmet {
  reason: SkipReason;
  message: string;
}

export interface Preflight {
  /** A setup no check can be run against: the one diagnosis. */
  stop?: NonNullable<RunResult['stopped']>;
  /** Partial problems, each said once before the checks. */
  notices: string[];
  rateLimitingOff?: Unmet;
  vendorMediaTypeRefused?: Unmet;
  /** The target refuses "Bearer <TOKEN>" and accepts "token <TOKEN>": the run sends the latter. */
  bearerRefused?: Unmet;
  tokens: Map<TokenName, Unmet>;
  resources: Map<string, Unmet>;
}

export async function preflight(client: Client, profile: Profile, names: VendorNames): Promise<Preflight> {
  const found: Preflight = { notices: [], tokens: new Map(), resources: new Map() };
  try {
    await probe(client, profile, names, found);
  } catch (err) {
    if (err instanceof TargetUnreachable) found.stop = { reason: 'unreachable', message: err.message };
    // A target that asks the preflight to wait past the caps has spent what the run may send it.
    else if (err instanceof BudgetExhausted || err instanceof WaitRefused) found.stop = { reason: 'budget-exhausted', message: err.message };
    else if (err instanceof Interrupted) found.stop = { reason: 'interrupted', message: err.message };
    else throw err;
  }
  // The probes belong to no check; they stay in the transcript.
  client.take();
  return found;
}

/** The first need of a check that the preflight found unmet. */
export function unmetNeed(needs: CheckSpec['needs'], found: Preflight): Unmet | undefined {
  if (needs?.rateLimiting && found.rateLimitingOff) return found.rateLimitingOff;
  if (needs?.vendorMediaType && found.vendorMediaTypeRefused) return found.vendorMediaTypeRefused;
  if (needs?.bearerScheme && found.bearerRefused) return found.bearerRefused;
  for (const name of needs?.tokens ?? []) if (found.tokens.has(name)) return found.tokens.get(name);
  for (const name of needs?.resources ?? []) if (found.resources.has(name)) return found.resources.get(name);
  return undefined;
}

async function probe(client: Client, profile: Profile, names: VendorNames, found: Preflight): Promise<void> {
  const root = client.root;
  const get = (path: string) => client.send({ path, as: null });
  let rate = await get(RATE_PROBE);
  let events = await get(PUBLIC_PROBE);

  if (rate.status === 406 || events.status === 406) {
    client.accept = PLAIN_JSON;
    const [plainRate, plainEvents] = [await get(RATE_PROBE), await get(PUBLIC_PROBE)];
    if (plainRate.status === 406 || plainEvents.status === 406) {
      client.accept = names.mediaType;
    } else {
      const message = `the target refuses the recommended media type (Accept: ${names.mediaType}) with 406 and accepts ${PLAIN_JSON}`;
      found.vendorMediaTypeRefused = { reason: 'media-type-refused', message };
      found.notices.push(`${message}: the run asks for ${PLAIN_JSON}, versioning.media-types fails for it, and the checks that send a vendor media type are skipped`);
      [rate, events] = [plainRate, plainEvents];
    }
  }

  if (!usable(rate) && !usable(events)) {
    const seen = `GET ${root}${RATE_PROBE} answered ${described(rate)}; GET ${root}${PUBLIC_PROBE} answered ${described(events)}`;
    found.stop = rate.status >= 500 && events.status >= 500
      ? { reason: 'server-error', message: `the target answers server errors, not this API: ${seen}` }
      : { reason: 'not-json', message: `${root} does not answer like this API: ${seen}` };
    return;
  }

  if (rate.status === 404 && events.status === 404) {
    found.stop = await wrongRoot(client, profile);
    return;
  }

  if (rate.status === 404) {
    const said = (rate.json as { message?: unknown } | undefined)?.message;
    const headers = Object.keys(events.headers).some((h) => h.startsWith('x-ratelimit-'));
    const message = `rate limiting is off on this target: GET ${RATE_PROBE} answered 404${typeof said === 'string' ? ` "${said}"` : ''}${headers ? '' : ' and answers carry no X-RateLimit-* headers'}`;
    found.rateLimitingOff = { reason: 'rate-limiting-off', message };
    found.notices.push(`${message}; the checks of rate limits are skipped`);
  }

  await probeTokens(client, profile, found);
  if (found.stop) return;

  const repo = profile.resources?.public_repo;
  if (repo) {
    const as = profile.tokens?.classic && !found.tokens.has('classic') ? 'classic' : null;
    const r = await client.send({ path: `/repos/${repo}/events?per_page=1`, as });
    if (r.status === 404) {
      const message = `the profile's public_repo ${repo} does not exist on the target (GET /repos/${repo}/events answered 404)`;
      found.resources.set('public_repo', { reason: 'setup-failed', message });
      found.notices.push(`${message}; the checks that need it are skipped`);
    }
  }
}

/**
 * Each profile token once: 401 means the target does not accept it. Where it refuses every token sent
 * as "Bearer <TOKEN>", the tokens are tried once more as "token <TOKEN>" (both schemes are stated as
 * accepted): a target accepting only the latter is run with it, and the refused Bearer is one failure
 * of auth.bearer-and-token-schemes, not a setup that stops the run.
 */
async function probeTokens(client: Client, profile: Profile, found: Preflight): Promise<void> {
  const tokens = (Object.keys(profile.tokens ?? {}) as TokenName[]).filter((n) => n !== 'invalid');
  const path = found.rateLimitingOff ? PUBLIC_PROBE : RATE_PROBE;
  const rejected = async () => {
    const out: TokenName[] = [];
    for (const name of tokens) if ((await client.send({ path, as: name })).status === 401) out.push(name);
    return out;
  };
  let refused = await rejected();
  if (tokens.length && refused.length === tokens.length) {
    client.scheme = 'token';
    const asToken = await rejected();
    client.scheme = 'Bearer';
    // Refused as Bearer here but accepted elsewhere: that endpoint breaks the rule, which its own check reports.
    const elsewhere = path === RATE_PROBE ? PUBLIC_PROBE : RATE_PROBE;
    if (asToken.length < tokens.length && (await client.send({ path: elsewhere, as: tokens[0] })).status !== 401) {
      refused = [];
    } else if (asToken.length < tokens.length) {
      client.scheme = 'token';
      const message = `the target refuses tokens sent as "Bearer <TOKEN>" with 401 and accepts them as "token <TOKEN>" (GET ${path} and GET ${elsewhere})`;
      found.bearerRefused = { reason: 'bearer-refused', message };
      found.notices.push(`${message}: the run sends "token <TOKEN>", auth.bearer-and-token-schemes fails for it, and the checks that send Bearer on purpose are skipped`);
      refused = asToken;
    }
  }
  for (const name of refused) found.tokens.set(name, { reason: 'token-rejected', message: `the target rejects the profile's token "${name}" with 401 (GET ${path})` });
  if (!found.tokens.size) return;
  const names = [...found.tokens.keys()].join(', ');
  if (found.tokens.size === tokens.length) {
    found.stop = { reason: 'credentials-rejected', message: `the target rejects every token of the profile with 401 (${names}, GET ${client.root}${path}): replace them in the profile` };
  } else {
    found.notices.push(`the target rejects the profile's token${found.tokens.size > 1 ? 's' : ''} ${names} with 401 (GET ${path}); the checks that need ${found.tokens.size > 1 ? 'them' : 'it'} are skipped`);
  }
}

/**
 * Neither probe is served: find the root that answers, to say which prefix to pass. A doubled prefix
 * (a base URL already ending in it) and a missing /api/v3 are the usual slips.
 */
async function wrongRoot(client: Client, profile: Profile): Promise<NonNullable<RunResult['stopped']>> {
  const base = profile.base_url.replace(/\/+$/, '');
  const prefix = profile.prefix ?? '';
  const tried = `GET ${client.root}${PUBLIC_PROBE} and GET ${client.root}${RATE_PROBE} answered 404`;
  const candidates: { root: string; diagnosis: string }[] = [];
  if (prefix && base.endsWith(prefix)) {
    candidates.push({ root: base, diagnosis: `doubled prefix: the base URL ${base} already ends in ${prefix} and the prefix ${prefix} adds it again; pass --base-url ${base.slice(0, -prefix.length)} with --prefix ${prefix}, or drop the prefix` });
  } else if (prefix) {
    candidates.push({ root: base, diagnosis: `wrong prefix: nothing is served below ${prefix}; drop the prefix ${prefix}` });
  } else if (!base.endsWith(SELF_HOSTED_PREFIX)) {
    candidates.push({ root: `${base}${SELF_HOSTED_PREFIX}`, diagnosis: `missing prefix: the API is served below ${SELF_HOSTED_PREFIX} (a self-hosted installation); pass --prefix ${SELF_HOSTED_PREFIX}` });
  }
  for (const { root, diagnosis } of candidates) {
    const r = await client.send({ root, path: PUBLIC_PROBE, as: null });
    if (r.status === 200 && !r.jsonError) return { reason: 'wrong-api-root', message: `${diagnosis} (${tried}; GET ${root}${PUBLIC_PROBE} answered 200)` };
  }
  return { reason: 'wrong-api-root', message: `${client.root} is not the API root: ${tried}; pass the API root as --base-url (and --prefix ${SELF_HOSTED_PREFIX} for a self-hosted installation)` };
}

/** An answer the checks can work with: JSON (or empty), not a server error, not a refused media type. */
function usable(r: Reply): boolean {
  return r.status < 500 && r.status !== 406 && !r.jsonError;
}

function described(r: Reply): string {
  if (r.jsonError) return `${r.status}: ${r.jsonError}`;
  const message = (r.json as { message?: unknown } | undefined)?.message;
  return `${r.status}${typeof message === 'string' ? ` "${message}"` : ''}`;
}
