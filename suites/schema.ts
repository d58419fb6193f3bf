/**
 * Schema conformance: every endpoint's success response (a write's, from a write that changes
 * nothing or is put back: suites/requests.ts), validated in full (every item,
 * nested) against the JSON Schema of its resource, saying how many records it graded; a response
 * with no record to grade is inconclusive, not a pass. And error bodies carry `message`.
 */
import { CATALOGUE, endpointById, type Endpoint } from '../spec/catalogue.js';
import { GOVERNS } from '../spec/coverage/governs.js';
import { judgeRefusal } from '../core/refusal.js';
import { grade, type Finding } from '../core/schemas.js';
import type { CheckSpec, Suite } from '../core/suite.js';
import { ANONYMOUS, changes, ensureImport, reach, REQUESTS, skipWithoutImport } from './requests.js';

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
  const how = reach(endpoint);
  if (!schema || !how) return undefined;
  return {
    id: `schema.${endpoint.id}`,
    title: `${endpoint.method} ${endpoint.path} answers ${endpoint.success.list ? 'an array of' : 'a'} ${schema} as the spec lists it`,
    requirement: SCHEMA_REQUIREMENT[schema]!,
    // A write's answer is graded from a write that changes nothing, or is put back: still a write.
    ...changes(endpoint),
    needs: {
      ...(ANONYMOUS.has(endpoint.id) ? { anonymous: true } : { tokens: ['classic'] }), resources: how.needs,
      ...(endpoint.path === '/rate_limit' ? { rateLimiting: true } : {}),
    },
    async run(t) {
      if (endpoint.area === 'imports' && t.writesAllowed) await ensureImport(t, undefined, { settled: true });
      const req = await how.request(t);
      let reply;
      try {
        // A search this run already counted (the search-counting suite runs first) is read again, not spent again.
        reply = await t.request({ ...req, reuse: endpoint.category === 'search' });
      } finally {
        await how.restore?.(t, req);
      }
      skipWithoutImport(t, endpoint, reply);
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

/** Every field of a JSON value whose name ends in `_url`, with its JSON pointer. */
function urlFields(value: unknown, path = ''): { path: string; value: unknown }[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => urlFields(v, `${path}/${i}`));
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [...(k.endsWith('_url') ? [{ path: `${path}/${k}`, value: v }] : []), ...urlFields(v, `${path}/${k}`)]);
}

/**
 * "Fields ending in `_url` are strings": every such field anywhere in the answer, named in a field
 * list or not. It reads the answer its schema check graded (reused: no request of its own).
 */
function urlFieldsCheck(endpoint: Endpoint): CheckSpec {
  const how = REQUESTS[endpoint.id]!;
  return {
    id: `resource.url-fields.${endpoint.id}`, title: `Every field ending in _url that ${endpoint.method} ${endpoint.path} answers is a string`,
    requirement: 'resource.url-fields',
    ...changes(endpoint),
    needs: { ...(ANONYMOUS.has(endpoint.id) ? { anonymous: true } : { tokens: ['classic'] }), resources: how.needs },
    async run(t) {
      if (endpoint.area === 'imports' && t.writesAllowed) await ensureImport(t, undefined, { settled: true });
      const reply = await t.request({ path: await how.path(t), reuse: true });
      skipWithoutImport(t, endpoint, reply);
      if (!t.expectStatus(reply, [endpoint.success.status])) return;
      const body = t.body(reply);
      if (body === undefined) return;
      const fields = urlFields(body);
      if (!fields.length) return t.skip('inconclusive', 'the answer has no field ending in _url');
      const describe = (v: unknown) => (Array.isArray(v) ? 'an array' : v === null ? 'null' : typeof v);
      // Nullability is not shown: a null is a warning, any other type breaks the rule.
      for (const f of summarise(fields.filter((f) => f.value !== null && typeof f.value !== 'string').map((f) => ({ path: f.path, message: `${describe(f.value)}, not a string` })))) t.fail(f.message, f.path);
      for (const f of summarise(fields.filter((f) => f.value === null).map((f) => ({ path: f.path, message: 'null, not a string (nullability not shown)' })))) t.warn(f.message, f.path);
      t.info(`walked ${fields.length} fields ending in _url`);
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
      if (typeof body?.message !== 'string') t.fail(`GET ${path} answered ${reply.status} without a message string: ${t.client.excerpt(reply.text, 120)}`);
    }
  },
};

export const schemaSuite: Suite = {
  name: 'schema',
  description: 'Every endpoint answers resources shaped as the spec lists them (a write: one that changes nothing or is put back), every field ending in _url a string; error bodies carry message.',
  independent: true,
  checks: () => [
    ...CATALOGUE.map(schemaCheck).filter((c): c is CheckSpec => !!c),
    ...GOVERNS['resource.url-fields']!.endpoints.map((id) => urlFieldsCheck(endpointById(id))), errorBodies,
  ],
};
