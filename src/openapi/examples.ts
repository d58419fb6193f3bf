/**
 * Examples for the OpenAPI export: one success answer of each catalogue endpoint that has a body,
 * and a few refusals, asked of an in-process reference through the one client. The reference runs on a fixed clock and
 * its host and port are replaced by those the README starts it at, so the same build gives the same bytes.
 */
import { CATALOGUE, endpointById, type Endpoint } from '../../spec/catalogue.js';
import { LIMITS } from '../../spec/limits.js';
import { vendorNames } from '../../spec/vendor.js';
import { ALERT_PATCH_STATES } from '../../spec/vocabulary.js';
import { Client } from '../../core/client.js';
import type { Profile, TokenName } from '../../core/profile.js';
import { Redactor } from '../../core/redact/redactor.js';
import { referenceProfile } from '../../reference/profile.js';
import { startReference } from '../../reference/server.js';

/** Where the examples say the reference runs: `npx conformance reference --port 8080`. */
export const EXAMPLE_ORIGIN = 'http://127.0.0.1:8080';
/** The reference's clock while answering: its seeded data is dated back from it. */
const EXAMPLE_NOW = Date.parse('2026-03-10T12:00:00Z');
/** Items per list example: enough to show a list, few enough to read. */
const EXAMPLE_ITEMS = 2;

export interface Example {
  endpoint: Endpoint;
  /** The endpoint's success status, or a refusal's. */
  status: number;
  /** The request body sent, for writes. */
  request?: Record<string, unknown>;
  /** The answer's parsed body, with the example origin. */
  response: unknown;
}

/** A body each write is answered with success for in the reference's world. */
function requestBody(endpoint: Endpoint, profile: Profile): Record<string, unknown> | undefined {
  switch (endpoint.id) {
    case 'notifications.subscription-set': return { ignored: false };
    case 'code-scanning.alert-update': return { state: ALERT_PATCH_STATES[0] };
    case 'imports.start': return { vcs_url: profile.resources?.import_urls?.large, vcs: 'subversion' };
    case 'imports.update': return { vcs: 'subversion' };
    case 'imports.author-update': return { name: 'Mona Lisa', email: 'mona@example.com' };
    case 'imports.lfs': return { use_lfs: 'opt_in' };
    default: return endpoint.method === 'GET' ? undefined : {};
  }
}

/** The path and query of a request to `endpoint`, each parameter it requires named from the reference's own profile (or `given`). */
function requestPath(endpoint: Endpoint, profile: Profile, authorId: unknown, given: Record<string, string> = {}): string {
  const r = profile.resources ?? {};
  const [owner, repo] = (endpoint.area === 'imports' ? r.import_repo : r.public_repo)?.split('/') ?? [];
  const values: Record<string, unknown> = {
    owner, repo, org: r.org, username: profile.tokens?.classic?.login, thread_id: r.thread_ids?.[0],
    alert_number: r.alert_numbers?.[0], author_id: authorId, q: r.search_keyword, repository_id: r.label_repository_id, ...given,
  };
  const value = (name: string) => {
    if (values[name] === undefined) throw new Error(`the reference's profile names no ${name} for ${endpoint.id}`);
    return String(values[name]);
  };
  const path = endpoint.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(value(name)));
  const query = new URLSearchParams(endpoint.params.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, value(p.name)]));
  if (endpoint.perPage) query.set('per_page', String(EXAMPLE_ITEMS));
  return query.size ? `${path}?${query}` : path;
}

/** Refusals the spec states, asked once each to show an error body: the import's read comes before any import exists. */
const REFUSALS: readonly { id: string; status: number; as?: TokenName; given?: Record<string, string> }[] = [
  { id: 'imports.get', status: 404 },
  { id: 'search.issues', status: 422, given: { q: 'a'.repeat(LIMITS.search.maxQueryLength + 1) } },
  { id: 'events.public', status: 401, as: 'invalid' },
];

/** The reference's answers, endpoint by endpoint: the refusals, then the import's start, so its reads find one, then the rest. */
export async function referenceExamples(): Promise<Example[]> {
  const reference = await startReference({ port: 0, now: () => EXAMPLE_NOW });
  try {
    const profile = referenceProfile(reference);
    const client = new Client({ profile, names: vendorNames(), timeoutMs: 15_000, maxRequests: CATALOGUE.length * 2 }, []);
    // Examples leave the process as a recording does: through the one redactor.
    const redactor = new Redactor();
    const examples: Example[] = [];
    let authorId: unknown;
    const ask = async (endpoint: Endpoint, status: number, as?: TokenName, given?: Record<string, string>) => {
      const request = requestBody(endpoint, profile);
      const path = requestPath(endpoint, profile, authorId, given);
      const reply = await client.send({ method: endpoint.method, path, ...(request ? { body: request } : {}), ...(as ? { as } : {}) });
      if (reply.status !== status) throw new Error(`the reference answered ${endpoint.method} ${path} with ${reply.status}, not ${status}: no example for ${endpoint.id}`);
      // Not only URLs name the reference's host and port: git_url and ssh_url do too.
      const response = redactor.json(JSON.parse(reply.text.split(new URL(reference.origin).host).join(new URL(EXAMPLE_ORIGIN).host)));
      if (endpoint.id === 'imports.authors') authorId = (response as { id?: unknown }[])[0]?.id;
      examples.push({ endpoint, status, ...(request ? { request: redactor.json(request) as Record<string, unknown> } : {}), response });
    };
    for (const r of REFUSALS) await ask(endpointById(r.id), r.status, r.as, r.given);
    const withBody = CATALOGUE.filter((e) => e.success.schema);
    for (const endpoint of [...withBody.filter((e) => e.id === 'imports.start'), ...withBody.filter((e) => e.id !== 'imports.start')]) {
      await ask(endpoint, endpoint.success.status);
    }
    return CATALOGUE.flatMap((e) => examples.filter((x) => x.endpoint === e));
  } finally {
    await reference.close();
  }
}
