/**
 * How to reach each endpoint with the profile's resources, shared by every suite that requests
 * a catalogue endpoint as such (schema conformance, the cross-cutting rules checked per endpoint).
 */
import type { Endpoint } from '../spec/catalogue.js';
import { IMPORT_RUNNING } from '../spec/vocabulary.js';
import type { Reply, RequestOptions } from '../core/client.js';
import type { ProfileResources, TokenName } from '../core/profile.js';
import { areasWritten, type CheckContext, type CheckSpec } from '../core/suite.js';
import { journalImport, putImport, startedImport } from './imports-http.js';
import { keepSubscription } from './notifications-http.js';
import { setupRequest } from './token-schemes.js';

export type Needs = (keyof ProfileResources)[];

/**
 * Whom a request acts as when not the profile's classic token: the lockout suite reaches each
 * endpoint as its sacrificial user, whose own threads and login the paths then name.
 */
export interface Identity {
  login: string;
  as: NonNullable<RequestOptions['as']>;
}

export interface EndpointRequest {
  /** Profile resources the path names. */
  needs: Needs;
  /** Path and query of a request the endpoint answers with its success status (as `who`, default the classic token). */
  path: (t: CheckContext, who?: Identity) => Promise<string> | string;
}

/** Public data, graded the same for an anonymous caller: these run without a profile token. */
export const ANONYMOUS = new Set(['search.commits', 'search.issues', 'search.repositories', 'events.public', 'rate-limit.get']);

/**
 * The second user that search checks act as where the first one's window of the search limit is
 * spent by other checks: rate limits are per caller, so a whole run stays within one window of each.
 */
export const SEARCH_CALLER: TokenName = 'classic_public';
/**
 * Another user for searches of public data any caller may make (the 1,000-result cap, total_count):
 * the first of these the profile names and the target accepts, so its own window spares the classic
 * user's; without one, the classic user searches.
 */
export const spareSearchCaller = (t: CheckContext): TokenName | undefined => (['org_member', 'security_manager'] as const).find((n) => t.usable(n));

/** How to reach each GET endpoint with the profile's resources; ids found at run time where the profile names none. */
export const REQUESTS: Readonly<Record<string, EndpointRequest>> = {
  'search.code': { needs: ['public_repo'], path: (t) => `/search/code?q=${q(`${keyword(t)} repo:${t.resources.public_repo}`)}` },
  'search.commits': { needs: [], path: (t) => `/search/commits?q=${q(keyword(t))}` },
  'search.issues': { needs: [], path: (t) => `/search/issues?q=${q(keyword(t))}` },
  'search.labels': { needs: ['label_repository_id'], path: (t) => `/search/labels?repository_id=${t.resources.label_repository_id}&q=${q(keyword(t))}` },
  'search.repositories': { needs: [], path: (t) => `/search/repositories?q=${q(keyword(t))}` },
  'notifications.list': { needs: [], path: () => '/notifications?all=true' },
  'notifications.thread': { needs: [], path: async (t, who) => `/notifications/threads/${await threadId(t, who)}` },
  'notifications.subscription': { needs: [], path: async (t, who) => `/notifications/threads/${await threadId(t, who)}/subscription` },
  'notifications.repo-list': { needs: ['public_repo'], path: (t) => `/repos/${t.resources.public_repo}/notifications?all=true` },
  'events.public': { needs: [], path: () => '/events' },
  'events.network': { needs: ['public_repo'], path: (t) => `/networks/${t.resources.public_repo}/events` },
  'events.org': { needs: ['org'], path: (t) => `/orgs/${t.resources.org}/events` },
  'events.repo': { needs: ['public_repo'], path: (t) => `/repos/${t.resources.public_repo}/events` },
  'events.user': { needs: [], path: (t, who) => `/users/${login(t, who)}/events` },
  'events.user-org': { needs: ['org'], path: (t, who) => `/users/${login(t, who)}/events/orgs/${t.resources.org}` },
  'events.user-public': { needs: [], path: (t, who) => `/users/${login(t, who)}/events/public` },
  'events.received': { needs: [], path: (t, who) => `/users/${login(t, who)}/received_events` },
  'events.received-public': { needs: [], path: (t, who) => `/users/${login(t, who)}/received_events/public` },
  'rate-limit.get': { needs: [], path: () => '/rate_limit' },
  'code-scanning.org-alerts': { needs: ['org'], path: (t) => `/orgs/${t.resources.org}/code-scanning/alerts` },
  'code-scanning.repo-alerts': { needs: ['public_repo'], path: (t) => `/repos/${t.resources.public_repo}/code-scanning/alerts` },
  'code-scanning.alert': { needs: ['public_repo'], path: async (t) => `/repos/${t.resources.public_repo}/code-scanning/alerts/${await alertNumber(t)}` },
  'imports.get': { needs: ['import_repo'], path: (t) => `/repos/${t.resources.import_repo}/import` },
  'imports.authors': { needs: ['import_repo'], path: (t) => `/repos/${t.resources.import_repo}/import/authors` },
  'imports.large-files': { needs: ['import_repo'], path: (t) => `/repos/${t.resources.import_repo}/import/large_files` },
};

/**
 * A write that leaves the state as it found it: what a check varying a write's credentials or headers
 * sends. Where no such write exists, one whose change is journaled and put back: `again` before each
 * further send, `restore` when the check is done, so later checks find the target as it was.
 */
export interface UnchangingWrite {
  needs: Needs;
  /** The request, built from what it reads first (as `who`, default the classic token); skips the check when nothing can be written back unchanged. */
  request: (t: CheckContext, who?: Identity) => Promise<RequestOptions>;
  /** Puts back what one admitted request changed (as `who`, the request's own caller), so the same request, sent again, finds what the first found. */
  again?: (t: CheckContext, req: RequestOptions, who?: Identity) => Promise<void>;
  /** Puts back what the check's requests changed once it is done (as `who`). */
  restore?: (t: CheckContext, req: RequestOptions, who?: Identity) => Promise<void>;
}

/**
 * A last_read_at before every thread: "thread updated at or before `last_read_at`" holds for none, so
 * marking read up to it reads nothing. Skips where an unread thread of the listing is that old.
 */
async function markNothing(t: CheckContext, path: string): Promise<RequestOptions> {
  const lastReadAt = '2000-01-01T00:00:00Z';
  // The unread threads updated before a second later, so one updated at last_read_at itself is found too.
  const older = await t.request({ path: `${path}?before=2000-01-01T00:00:01Z&per_page=1` });
  if (older.status !== 200 || !Array.isArray(older.json) || older.json.length) {
    return t.skip('missing-resource', `GET ${path} of unread threads updated by ${lastReadAt} answered ${older.status} ${t.client.excerpt(older.text, 80)}: `
      + 'not an empty list, so marking read up to then could change something');
  }
  return { method: 'PUT', path, body: { last_read_at: lastReadAt } };
}

/** Puts a deleted subscription back; where the PUT is refused (the caller locked out meanwhile), the subscription is reported as left deleted. */
async function resubscribe(t: CheckContext, req: RequestOptions, who?: Identity): Promise<void> {
  const r = await t.request({ method: 'PUT', path: req.path, body: { ignored: false }, ...as(who) });
  if (r.status !== 200) t.journal.irreversible(`${req.path}${who ? ` of ${who.login}` : ''} possibly left deleted`, `putting it back with PUT ignored=false answered ${r.status}`);
}

/** Ends the check as inconclusive when what `again` put back is not there: the next send would meet another state. */
function putBack(t: CheckContext, reply: Reply, expected: readonly number[], what: string): void {
  if (!expected.includes(reply.status)) t.skip('inconclusive', `${what} answered ${reply.status}, so the request could not be sent again to the state the control met`);
}

/** The import as a check of a read endpoint expects it: none left over, then a new one started (journaled). */
async function freshImport(t: CheckContext, who?: Identity): Promise<void> {
  await t.request({ method: 'DELETE', path: `/repos/${t.resources.import_repo}/import`, ...as(who) });
  await ensureImport(t, who);
}

export const UNCHANGING_WRITES: Readonly<Record<string, UnchangingWrite>> = {
  // Reopening an open alert: only its updated_at moves. The profile's first alert, else (another check
  // dismissed it until the run's end) the first open one listed.
  'code-scanning.alert-update': {
    needs: ['public_repo'],
    async request(t, who) {
      const alerts = `/repos/${t.resources.public_repo}/code-scanning/alerts`;
      const stateOf = async (n: unknown) => ((await t.request({ path: `${alerts}/${n}`, ...as(who) })).json as { state?: unknown } | undefined)?.state;
      const named = await alertNumber(t);
      const state = await stateOf(named);
      const listed = state === 'open' ? [] : (await t.request({ path: `${alerts}?state=open&per_page=1`, ...as(who) })).json;
      const number = state === 'open' ? named : (Array.isArray(listed) ? listed[0] as { number?: unknown } | undefined : undefined)?.number;
      if (number === undefined || (number !== named && (await stateOf(number)) !== 'open')) {
        return t.skip('missing-resource', `alert ${alerts}/${named} is ${JSON.stringify(state)} and no open alert is listed: only reopening an open alert writes nothing`);
      }
      return { method: 'PATCH', path: `${alerts}/${number}`, body: { state: 'open' } };
    },
  },
  // Putting back the ignored flag of a subscription that holds no reason: PUT answers the same subscription.
  'notifications.subscription-set': {
    needs: [],
    async request(t, who) {
      const path = `/notifications/threads/${await threadId(t, who)}/subscription`;
      const now = (await t.request({ path, ...as(who) })).json as { ignored?: unknown; subscribed?: unknown; reason?: unknown } | undefined;
      if (typeof now?.ignored !== 'boolean' || now.subscribed !== !now.ignored || now.reason !== null) {
        return t.skip('missing-resource', `${path} is not a subscription without a reason (${JSON.stringify(now)}): a PUT could change it`);
      }
      return { method: 'PUT', path, body: { ignored: now.ignored } };
    },
  },
  // Marking read up to a moment before every thread: nothing is that old.
  'notifications.mark-read': { needs: [], request: (t) => markNothing(t, '/notifications') },
  'notifications.repo-mark-read': { needs: ['public_repo'], request: (t) => markNothing(t, `/repos/${t.resources.public_repo}/notifications`) },
  // Deleting a subscription that is subscribed and not ignored, put back with PUT ignored=false
  // ("ignored | … ignored=false | subscribed") before each further DELETE and when the check is done.
  // The second thread's: the first is the one the subscription checks read and change. Another
  // identity's (the lockout's sacrificial user) is put back by again and restore alone, as that user:
  // the run's end, when the journal is unwound, may find it locked out.
  'notifications.subscription-delete': {
    needs: [],
    async request(t, who) {
      const list = await t.request({ path: '/notifications?all=true&per_page=2', ...as(who) });
      const id = ((Array.isArray(list.json) ? list.json[1] : undefined) as { id?: unknown } | undefined)?.id;
      if (typeof id !== 'string') return t.skip('missing-resource', 'fewer than two notification threads: no subscription to delete and put back');
      const path = `/notifications/threads/${id}/subscription`;
      const now = (await t.request({ path, ...as(who) })).json as { ignored?: unknown; subscribed?: unknown } | undefined;
      if (now?.ignored !== false || now.subscribed !== true) return t.skip('missing-resource', `${path} is ${JSON.stringify(now)}, not subscribed and not ignored: PUT could not put it back`);
      if (!who) await keepSubscription(t, id);
      return { method: 'DELETE', path };
    },
    async again(t, req, who) {
      putBack(t, await t.request({ method: 'PUT', path: req.path, body: { ignored: false }, ...as(who) }), [200], `PUT ${req.path} ignored=false`);
    },
    restore: resubscribe,
  },
  // Marking read a thread that is read already: "unread | PATCH … | read" has nothing to move.
  'notifications.thread-mark-read': {
    needs: [],
    async request(t, who) {
      const list = await t.request({ path: '/notifications?all=true&per_page=50', ...as(who) });
      const read = (Array.isArray(list.json) ? list.json : []).find((x: { unread?: unknown; id?: unknown }) => x.unread === false && typeof x.id === 'string') as { id: string } | undefined;
      if (!read) return t.skip('missing-resource', 'no read thread among the 50 newest: marking an unread one read would change it');
      return { method: 'PATCH', path: `/notifications/threads/${read.id}` };
    },
  },
  // Setting an import's LFS preference to the one it holds. `undecided` is no value a request is shown
  // to send, so an undecided import (the run's own, deleted at the end) is first set to opt_out.
  'imports.lfs': {
    needs: ['import_repo'],
    async request(t, who) {
      const path = `/repos/${t.resources.import_repo}/import`;
      const now = ((await t.request({ path, ...as(who) })).json as { use_lfs?: unknown } | undefined)?.use_lfs;
      if (now === 'opt_in' || now === 'opt_out') return { method: 'PATCH', path: `${path}/lfs`, body: { use_lfs: now } };
      if (now !== 'undecided') return t.skip('missing-resource', `the import of ${t.resources.import_repo} shows use_lfs ${JSON.stringify(now)}: nothing to write back unchanged`);
      const set = await setupRequest(t, { method: 'PATCH', path: `${path}/lfs`, body: { use_lfs: 'opt_out' }, ...as(who) });
      // The run's own import is deleted at the end; another's keeps the preference.
      if (!startedImport(t)) t.journal.irreversible(`use_lfs of the import into ${t.resources.import_repo} set from undecided to opt_out`, 'no request value is shown that sets it back to undecided');
      if (set.status !== 200) return t.skip('missing-resource', `PATCH ${path}/lfs opt_out answered ${set.status}: no preference to write back`);
      return { method: 'PATCH', path: `${path}/lfs`, body: { use_lfs: 'opt_out' } };
    },
  },
  // Starting, restarting and cancelling an import change it, and nothing written back undoes that:
  // each is sent on the import_repo the import checks own (imports.ts starts and deletes imports there
  // too), the import it leaves is journaled for deletion, and the import a read check expects, a
  // new one, is put back when the check is done (a check grading what it found follows it: ensureImport).
  'imports.start': {
    needs: ['import_repo', 'import_urls'],
    async request(t, who) {
      const path = `/repos/${t.resources.import_repo}/import`;
      const source = importSource(t);
      if (!source) return t.skip('missing-resource', 'the profile names no import_urls.ok to start an import from');
      // "DELETE import, then PUT import": a new import needs the old one gone.
      await t.request({ method: 'DELETE', path, ...as(who) });
      journalImport(t);
      return { method: 'PUT', path, body: { vcs: 'subversion', vcs_url: source } };
    },
    async again(t, req, who) {
      putBack(t, await t.request({ method: 'DELETE', path: req.path, ...as(who) }), [204, 404], `DELETE ${req.path}`);
    },
    restore: (t, _req, who) => freshImport(t, who),
  },
  // "any | PATCH import with no parameters | | import restarted": sent again, it restarts again.
  'imports.update': {
    needs: ['import_repo'],
    request: async (t) => ({ method: 'PATCH', path: `/repos/${t.resources.import_repo}/import`, body: {} }),
    restore: (t, _req, who) => freshImport(t, who),
  },
  'imports.cancel': {
    needs: ['import_repo', 'import_urls'],
    async request(t) {
      if (!importSource(t)) return t.skip('missing-resource', 'the profile names no import_urls.ok to start the cancelled import again from');
      return { method: 'DELETE', path: `/repos/${t.resources.import_repo}/import` };
    },
    async again(t, req, who) {
      await ensureImport(t, who);
      putBack(t, await t.request({ path: req.path, ...as(who) }), [200], `GET ${req.path} after starting the import again`);
    },
    restore: (t, _req, who) => ensureImport(t, who),
  },
  // Mapping an import author to the name and email it already has.
  'imports.author-update': {
    needs: ['import_repo'],
    async request(t, who) {
      await ensureImport(t, who, { settled: true });
      const authors = (await t.request({ path: `/repos/${t.resources.import_repo}/import/authors`, ...as(who) })).json;
      const author = (Array.isArray(authors) ? authors : []).find((a: { id?: unknown; email?: unknown; name?: unknown }) =>
        typeof a.id === 'number' && typeof a.email === 'string' && typeof a.name === 'string') as { id: number; email: string; name: string } | undefined;
      if (!author) return t.skip('missing-resource', `the import of ${t.resources.import_repo} lists no author with a name and an email to write back`);
      return { method: 'PATCH', path: `/repos/${t.resources.import_repo}/import/authors/${author.id}`, body: { email: author.email, name: author.name } };
    },
  },
};

const q = (s: string) => encodeURIComponent(s);
const keyword = (t: CheckContext) => t.resources.search_keyword ?? 'test';
const login = (t: CheckContext, who?: Identity) => who?.login ?? t.profile.tokens?.classic?.login ?? t.resources.usernames?.[0] ?? 'octocat';
const as = (who?: Identity): Pick<RequestOptions, 'as'> => (who ? { as: who.as } : {});

/** A thread of the caller: the profile's thread_ids name the classic token's; another identity's is found in its own listing. */
async function threadId(t: CheckContext, who?: Identity): Promise<string> {
  const named = who ? undefined : t.resources.thread_ids?.[0];
  if (named) return named;
  const list = await t.request({ path: '/notifications?all=true&per_page=1', ...as(who) });
  const first = (Array.isArray(list.json) ? list.json[0] : undefined) as { id?: string } | undefined;
  if (!first?.id) return t.skip('missing-resource', who ? `${who.login} has no thread in the notification listing` : 'the profile names no thread_ids and the notification listing is empty');
  return first.id;
}

async function alertNumber(t: CheckContext): Promise<number> {
  const named = t.resources.alert_numbers?.[0];
  if (named) return named;
  const list = await t.request({ path: `/repos/${t.resources.public_repo}/code-scanning/alerts?per_page=1` });
  const first = (Array.isArray(list.json) ? list.json[0] : undefined) as { number?: number } | undefined;
  if (!first?.number) return t.skip('missing-resource', `the profile names no alert_numbers and ${t.resources.public_repo} lists no alert`);
  return first.number;
}

/** The course with files over 100MB, when the profile names one, so the large-file listing has items to grade. */
const importSource = (t: CheckContext) => t.resources.import_urls?.large ?? t.resources.import_urls?.ok;

/** How a check reaches an endpoint: a GET the shared requests build, or a write that changes nothing (or is put back). */
export function reach(e: Endpoint): UnchangingWrite | undefined {
  if (e.method !== 'GET') return UNCHANGING_WRITES[e.id];
  const how = REQUESTS[e.id];
  return how && { needs: how.needs, request: async (t, who) => ({ path: await how.path(t, who) }) };
}

/**
 * `reach` for a check that judges the answer's status and headers, not its items: a list that takes
 * per_page is asked for one item, so the target serves a page of one however many it holds (a run
 * sends a dozen such requests to each list). Search keeps its own request, whose answer the schema
 * check's request lends to spare the search window.
 */
export function reachForStatus(e: Endpoint): UnchangingWrite | undefined {
  const how = reach(e);
  if (!how || e.method !== 'GET' || e.category === 'search' || !e.params.some((p) => p.name === 'per_page')) return how;
  return {
    ...how,
    async request(t, who) {
      const req = await how.request(t, who);
      return /[?&]per_page=/.test(req.path) ? req : { ...req, path: `${req.path}${req.path.includes('?') ? '&' : '?'}per_page=1` };
    },
  };
}

/**
 * What a per-endpoint check of `e` declares it changes: a write, its area; a read of an import, the
 * import `ensureImport` may start for it.
 */
export function changes(e: Endpoint): Pick<CheckSpec, 'writes' | 'mayWrite'> {
  if (e.method !== 'GET') return { writes: e.area };
  return e.area === 'imports' ? { mayWrite: [e.area] } : {};
}

/**
 * With writes allowed, an import to read (as `who`): started (and journaled for deletion) when none
 * exists. `settled`, for a check that grades what the import found (its record, authors, large
 * files): a running import is followed until it stops running. A check that judges only status and
 * headers, and the restores, leave it running: following it there was a tenth of a run's requests.
 */
export async function ensureImport(t: CheckContext, who?: Identity, { settled = false } = {}): Promise<void> {
  // CheckContext.request refuses an undeclared import's PUT, but only in a run where none exists yet;
  // refused here on every call, the whole run with writes proves each caller declares it.
  if (!areasWritten(t.spec).includes('imports')) throw new Error(`${t.spec.id} may start an import but does not declare it (CheckSpec writes or mayWrite)`);
  const path = `/repos/${t.resources.import_repo}/import`;
  const source = importSource(t);
  if (!source) return;
  const found = await setupRequest(t, { path, ...as(who) });
  if (found.status !== 404) {
    if (settled && found.status === 200 && running(found)) await follow(t, path, who);
    return;
  }
  const r = await putImport(t, () => t.request({ method: 'PUT', path, body: { vcs: 'subversion', vcs_url: source }, ...as(who) }));
  if (r.status === 201 && settled) await follow(t, path, who);
}

const running = (reply: Reply) => IMPORT_RUNNING.includes((reply.json as { status?: string } | undefined)?.status ?? '');

/**
 * Follows a running import a few reads, until it stops running, so what it finds (authors, large
 * files) is there to read. A setup step, so unlike the import checks' patient follow (imports-http.ts)
 * it judges no answer, never waits and never skips: a check grades whatever the import shows by then.
 */
async function follow(t: CheckContext, path: string, who?: Identity): Promise<void> {
  for (let i = 0; i < 8; i++) if (!running(await t.request({ path, ...as(who) }))) return;
}

/** An import endpoint's answer when there is no import to read: the check is skipped, saying why. */
export function skipWithoutImport(t: CheckContext, endpoint: Endpoint, reply: Reply): void {
  if (endpoint.area !== 'imports') return;
  if (reply.status === 404) t.skip('missing-resource', `no import exists in ${t.resources.import_repo}; start one with --allow-writes`);
  if (reply.status === 503) t.skip('feature-retired', 'the source import interface answers 503 (retired)');
}
