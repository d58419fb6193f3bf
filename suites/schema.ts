/**
 * Schema conformance: every GET endpoint's success response, validated in full (every item,
 * nested) against the JSON Schema of its resource, saying how many records it graded; a response
 * with no record to grade is inconclusive, not a pass. And error bodies carry `message`.
 */
import { CATALOGUE, type Endpoint } from '../spec/catalogue.js';
import type { ProfileResources } from '../src/profile.js';
import { judgeRefusal } from '../src/refusal.js';
import { grade, type Finding } from '../src/schemas.js';
import type { CheckContext, CheckSpec, Suite } from '../src/suite.js';

/** Which stated field list each success schema enforces. */
const SCHEMA_REQUIREMENT: Record<string, string> = {
  'search-code': 'resource.code-item',
  'search-commits': 'resource.commit-item',
  'search-issues': 'resource.issue-item',
  'search-labels': 'resource.label-item',
  'search-repositories': 'resource.search-envelope',
  'notification-thread': 'resource.notification-thread',
  'thread-subscription': 'resource.thread-subscription',
  event: 'resource.event',
  'rate-limit': 'ratelimit.status-categories',
  'code-scanning-alert': 'resource.code-scanning-alert',
  'code-scanning-alert-single': 'resource.code-scanning-alert',
  'code-scanning-alert-org': 'resource.code-scanning-alert-org',
  import: 'resource.import',
  'import-author': 'resource.import-author',
  'large-file': 'resource.large-file',
};

type Needs = (keyof ProfileResources)[];

/** Public data, graded the same for an anonymous caller: these run without a profile token. */
const ANONYMOUS = new Set(['search.commits', 'search.issues', 'search.repositories', 'events.public', 'rate-limit.get']);

/** How to reach each GET endpoint with the profile's resources; ids found at run time where the profile names none. */
const REQUESTS: Record<string, { needs: Needs; path: (t: CheckContext) => Promise<string> | string }> = {
  'search.code': { needs: ['public_repo'], path: (t) => `/search/code?q=${q(`${keyword(t)} repo:${t.resources.public_repo}`)}` },
  'search.commits': { needs: [], path: (t) => `/search/commits?q=${q(keyword(t))}` },
  'search.issues': { needs: [], path: (t) => `/search/issues?q=${q(keyword(t))}` },
  'search.labels': { needs: ['label_repository_id'], path: (t) => `/search/labels?repository_id=${t.resources.label_repository_id}&q=${q(keyword(t))}` },
  'search.repositories': { needs: [], path: (t) => `/search/repositories?q=${q(keyword(t))}` },
  'notifications.list': { needs: [], path: () => '/notifications?all=true' },
  'notifications.thread': { needs: [], path: async (t) => `/notifications/threads/${await threadId(t)}` },
  'notifications.subscription': { needs: [], path: async (t) => `/notifications/threads/${await threadId(t)}/subscription` },
  'notifications.repo-list': { needs: ['public_repo'], path: (t) => `/repos/${t.resources.public_repo}/notifications?all=true` },
  'events.public': { needs: [], path: () => '/events' },
  'events.network': { needs: ['public_repo'], path: (t) => `/networks/${t.resources.public_repo}/events` },
  'events.org': { needs: ['org'], path: (t) => `/orgs/${t.resources.org}/events` },
  'events.repo': { needs: ['public_repo'], path: (t) => `/repos/${t.resources.public_repo}/events` },
  'events.user': { needs: [], path: (t) => `/users/${login(t)}/events` },
  'events.user-org': { needs: ['org'], path: (t) => `/users/${login(t)}/events/orgs/${t.resources.org}` },
  'events.user-public': { needs: [], path: (t) => `/users/${login(t)}/events/public` },
  'events.received': { needs: [], path: (t) => `/users/${login(t)}/received_events` },
  'events.received-public': { needs: [], path: (t) => `/users/${login(t)}/received_events/public` },
  'rate-limit.get': { needs: [], path: () => '/rate_limit' },
  'code-scanning.org-alerts': { needs: ['org'], path: (t) => `/orgs/${t.resources.org}/code-scanning/alerts` },
  'code-scanning.repo-alerts': { needs: ['public_repo'], path: (t) => `/repos/${t.resources.public_repo}/code-scanning/alerts` },
  'code-scanning.alert': { needs: ['public_repo'], path: async (t) => `/repos/${t.resources.public_repo}/code-scanning/alerts/${await alertNumber(t)}` },
  'imports.get': { needs: ['import_repo'], path: (t) => `/repos/${t.resources.import_repo}/import` },
  'imports.authors': { needs: ['import_repo'], path: (t) => `/repos/${t.resources.import_repo}/import/authors` },
  'imports.large-files': { needs: ['import_repo'], path: (t) => `/repos/${t.resources.import_repo}/import/large_files` },
};

const q = (s: string) => encodeURIComponent(s);
const keyword = (t: CheckContext) => t.resources.search_keyword ?? 'test';
const login = (t: CheckContext) => t.profile.tokens?.classic?.login ?? t.resources.usernames?.[0] ?? 'octocat';

async function threadId(t: CheckContext): Promise<string> {
  const named = t.resources.thread_ids?.[0];
  if (named) return named;
  const list = await t.request({ path: '/notifications?all=true&per_page=1' });
  const first = (Array.isArray(list.json) ? list.json[0] : undefined) as { id?: string } | undefined;
  if (!first?.id) return t.skip('missing-resource', 'the profile names no thread_ids and the notification listing is empty');
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

/** With writes allowed, an import to read: started (and journaled for deletion) when none exists. */
async function ensureImport(t: CheckContext): Promise<void> {
  const path = `/repos/${t.resources.import_repo}/import`;
  // The course with files over 100MB, when the profile names one, so the large-file listing has items to grade.
  const source = t.resources.import_urls?.large ?? t.resources.import_urls?.ok;
  if (!source || (await t.request({ path })).status !== 404) return;
  const r = await t.request({ method: 'PUT', path, body: { vcs: 'subversion', vcs_url: source } });
  if (r.status !== 201) return;
  t.journal.record(`import into ${t.resources.import_repo}`, async () => {
    await t.client.send({ method: 'DELETE', path });
  });
  // Follow it a few steps so authors and large files exist.
  for (let i = 0; i < 8; i++) await t.request({ path });
}

/** How many records a success body holds: a list's entries, a search envelope's items, or the one resource. */
function itemsGraded(endpoint: Endpoint, body: unknown): { count: number; what: string } {
  if (endpoint.success.list) return Array.isArray(body) ? { count: body.length, what: 'the list is empty' } : { count: 0, what: 'not a list' };
  if (endpoint.area !== 'search') return { count: 1, what: 'one resource' };
  const { items, total_count } = (body ?? {}) as { items?: unknown; total_count?: unknown };
  const count = Array.isArray(items) ? items.length : 0;
  return { count, what: `the envelope has total_count ${JSON.stringify(total_count)} and ${Array.isArray(items) ? 'an empty items array' : `items ${JSON.stringify(items) ?? 'absent'}`}` };
}

/** One note per finding repeated across list entries (`/3/repository/svn_url` and `/7/...` alike), with how often it occurred. */
function summarise(findings: Finding[]): Finding[] {
  const groups = new Map<string, { path: string; message: string; count: number }>();
  for (const f of findings) {
    const path = f.path.replace(/\/\d+(?=\/|$)/g, '/*');
    const key = `${path}\u0000${f.message}`;
    const g = groups.get(key);
    if (g) g.count++;
    else groups.set(key, { path, message: f.message, count: 1 });
  }
  return [...groups.values()].map((g) => ({ path: g.path, message: g.count > 1 ? `${g.message}, ${g.count} times` : g.message }));
}

function schemaCheck(endpoint: Endpoint): CheckSpec | undefined {
  const schema = endpoint.success.schema;
  const how = REQUESTS[endpoint.id];
  if (!schema || !how) return undefined;
  return {
    id: `schema.${endpoint.id}`,
    title: `${endpoint.method} ${endpoint.path} answers ${endpoint.success.list ? 'an array of' : 'a'} ${schema} as the spec lists it`,
    requirement: SCHEMA_REQUIREMENT[schema]!,
    needs: {
      ...(ANONYMOUS.has(endpoint.id) ? { anonymous: true } : { tokens: ['classic'] }), resources: how.needs,
      ...(endpoint.path === '/rate_limit' ? { rateLimiting: true } : {}),
    },
    async run(t) {
      if (endpoint.area === 'imports' && t.writesAllowed) await ensureImport(t);
      const reply = await t.request({ path: await how.path(t) });
      if (endpoint.area === 'imports' && reply.status === 404) return t.skip('missing-resource', `no import exists in ${t.resources.import_repo}; start one with --allow-writes`);
      if (endpoint.area === 'imports' && reply.status === 503) return t.skip('feature-retired', 'the source import interface answers 503 (retired)');
      if (!t.expectStatus(reply, [endpoint.success.status])) return;
      const body = t.body(reply);
      if (body === undefined) return;
      const result = grade(schema, body, { list: endpoint.success.list ?? false, strict: t.strict });
      for (const f of result.failures) t.fail(f.message, f.path);
      for (const f of result.warnings) t.warn(f.message, f.path);
      const seen = itemsGraded(endpoint, body);
      if (!seen.count && !result.failures.length && !result.warnings.length) return t.skip('inconclusive', `${seen.what}: nothing to grade`);
      t.info(`graded ${seen.count} ${seen.count === 1 ? 'item' : 'items'} as ${schema}`);
      for (const f of summarise(result.infos)) t.info(f.message, f.path);
    },
  };
}

const errorBodies: CheckSpec = {
  id: 'schema.error-message',
  title: 'Error bodies of deliberately bad requests carry a message string',
  requirement: 'errors.message',
  needs: { tokens: ['classic'] },
  async run(t) {
    // The control: the same read of a thread that exists (the profile's first; else the listing), so a
    // 404 from something that answers everything so is no error of this API.
    const thread = t.resources.thread_ids?.[0];
    const control = await t.request({ path: thread ? `/notifications/threads/${thread}` : '/notifications?per_page=1', reuse: true });
    // The search 422's message is checked by the search suite; these probes spend no search quota.
    const probes = ['/notifications/threads/0', '/no-such-endpoint-conformance-probe'];
    for (const path of probes) {
      const reply = await t.request({ path });
      if (reply.status < 400) {
        t.inconclusive(`GET ${path} answered ${reply.status}, not an error`);
        continue;
      }
      // A 406, 415, 429 or 5xx is not the error the bad request was for: its body is not judged.
      const { verdict, reason } = judgeRefusal(reply.status, control.status);
      if (verdict !== 'refused') {
        t.inconclusive(`GET ${path}: ${reason}`);
        continue;
      }
      const body = reply.json as { message?: unknown } | undefined;
      if (typeof body?.message !== 'string') t.fail(`GET ${path} answered ${reply.status} without a message string: ${reply.text.slice(0, 120)}`);
    }
  },
};

export const schemaSuite: Suite = {
  name: 'schema',
  description: 'Every GET endpoint answers resources shaped as the spec lists them; error bodies carry message.',
  checks: () => [...CATALOGUE.filter((e) => e.method === 'GET').map(schemaCheck).filter((c): c is CheckSpec => !!c), errorBodies],
};
