/**
 * The OpenAPI 3.1 description of both spec documents, built only from what the project holds as
 * data: the endpoint catalogue (paths, parameters, statuses, tokens, scopes, permissions), the
 * resource schemas (JSON Schema 2020-12 is OpenAPI 3.1's own dialect), the spec's words for each
 * status and header, the endpoints each rule governs (which decide the headers and the refusals an
 * endpoint adds to its table), and examples the reference answered.
 */
import { CATALOGUE, type Endpoint, type Param } from '../../spec/catalogue.js';
import { GOVERNS } from '../../spec/coverage/governs.js';
import { RATE_CATEGORIES } from '../../spec/limits.js';
import { requirement } from '../../spec/requirements/index.js';
import { TOKEN_KINDS, type TokenKind } from '../../spec/tokens.js';
import { UNITS_BY_DOC } from '../../spec/units/index.js';
import type { VendorNames } from '../../spec/vendor.js';
import { API_VERSIONS } from '../../spec/vocabulary.js';
import { SELF_HOSTED_PREFIX } from '../../core/preflight.js';
import { rateLimitHeaders } from '../../core/rate-limiter.js';
import { schemaBundle, type Schema } from '../../core/schema-bundle.js';
import type { Example } from './examples.js';

export type OpenApiDocument = Record<string, unknown>;

export interface DocumentOptions {
  /** The package version: the description's own version. */
  version: string;
  names: VendorNames;
  /** Where the examples were answered (the first server). */
  origin: string;
  examples: readonly Example[];
}

const JSON_MEDIA = 'application/json';
const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });
const schemaRef = (name: string) => ref('schemas', name);
const governs = (requirementId: string, endpoint: Endpoint) => GOVERNS[requirementId]?.endpoints.includes(endpoint.id) ?? false;

/** Statuses an endpoint answers beyond its own table, because a rule governing it (spec/coverage/governs.ts) states them. */
const REFUSALS: readonly { requirement: string; statuses: readonly number[] }[] = [
  { requirement: 'auth.invalid-credentials-401', statuses: [401] },
  { requirement: 'auth.no-token-404-or-403', statuses: [403, 404] },
  { requirement: 'auth.lockout-403', statuses: [403] },
  { requirement: 'ratelimit.exhausted-403', statuses: [403] },
];

/** Response headers: the rule that states each, and which of an endpoint's answers carry it. */
interface HeaderRule {
  requirement: string;
  header: (names: VendorNames) => string;
  schema: Schema;
  on: (endpoint: Endpoint, status: number) => boolean;
}
const success = (e: Endpoint, status: number) => status === e.success.status;
const HEADER_RULES: readonly HeaderRule[] = [
  { requirement: 'poll.interval-header', header: () => 'X-Poll-Interval', schema: { type: 'integer' }, on: (e, s) => success(e, s) || s === 304 },
  { requirement: 'cond.last-modified-304', header: () => 'Last-Modified', schema: { type: 'string' }, on: success },
  { requirement: 'cond.etag-quoted', header: () => 'ETag', schema: { type: 'string' }, on: success },
  { requirement: 'auth.accepted-permissions-header', header: (n) => n.acceptedPermissionsHeader, schema: { type: 'string' }, on: () => true },
  { requirement: 'auth.sso-403-header', header: (n) => n.ssoHeader, schema: { type: 'string' }, on: (_e, s) => s === 403 },
  { requirement: 'auth.sso-partial-results', header: (n) => n.ssoHeader, schema: { type: 'string' }, on: success },
];

/**
 * The X-RateLimit-* headers the client paces by and the reference sends on every counted answer. The
 * spec names the categories, not these headers: they are the platform's names.
 */
const RATE_HEADER_WORDS: Record<string, string> = {
  limit: 'requests allowed in the window of the category',
  remaining: 'requests left in the window',
  used: 'requests made in the window',
  reset: 'when the window resets, in UTC epoch seconds',
  resource: 'the rate-limit category the request counted against',
};
const RATE_HEADERS = Object.keys(rateLimitHeaders({ limit: 0, remaining: 0, used: 0, reset: 0 }, 'core'));

function rateHeader(name: string): Schema {
  const word = name.replace(/^x-ratelimit-/, '');
  const description = RATE_HEADER_WORDS[word];
  if (!description) throw new Error(`no description for the rate-limit header ${name}`);
  return { description: `${description} (the platform's header; the spec names the categories only)`, schema: word === 'resource' ? { enum: [...RATE_CATEGORIES] } : { type: 'integer' } };
}

/** The spec's meaning of a status: the row of the endpoint's document's error table, else document 1's (the shared conventions). */
function meaning(doc: 1 | 2, status: number): string {
  const row = [doc, 1 as const].map((d) => UNITS_BY_DOC[d].find((u) => u.id === `d${d}.errors.${status}`)).find(Boolean);
  if (!row) throw new Error(`neither document's error table has the status ${status}`);
  return row.text.replace(/^\d+ \| /, '');
}

function paramSchema(p: Param, endpoint: Endpoint): Schema {
  const base: Schema = p.type === 'timestamp' ? schemaRef('common/$defs/timestamp')
    : p.type === 'string-or-null' ? { type: ['string', 'null'] } : { type: p.type };
  if (p.enum) base.enum = [...p.enum];
  if (p.default !== undefined) base.default = p.default;
  if (p.name === 'per_page' && endpoint.perPage) {
    base.maximum = endpoint.perPage.max;
    if (endpoint.perPage.default !== undefined) base.default = endpoint.perPage.default;
  }
  return base;
}

function parameters(endpoint: Endpoint): Schema[] {
  const own = endpoint.params.filter((p) => p.in !== 'body')
    .map((p) => ({ name: p.name, in: p.in, ...(p.required ? { required: true } : {}), schema: paramSchema(p, endpoint) }));
  return [...own, ref('parameters', 'api-version')];
}

function requestBody(endpoint: Endpoint, example: Example | undefined): Schema | undefined {
  const fields = endpoint.params.filter((p) => p.in === 'body');
  if (!fields.length) return undefined;
  const required = fields.filter((p) => p.required).map((p) => p.name);
  const schema: Schema = { type: 'object', properties: Object.fromEntries(fields.map((p) => [p.name, paramSchema(p, endpoint)])), ...(required.length ? { required } : {}) };
  const examples = example?.request ? { examples: { reference: { summary: 'Sent to the reference for the response example', value: example.request } } } : {};
  return { ...(required.length ? { required: true } : {}), content: { [JSON_MEDIA]: { schema, ...examples } } };
}

function bodySchema(endpoint: Endpoint, status: number): Schema | undefined {
  if (status === endpoint.success.status && endpoint.success.schema) {
    const one = schemaRef(endpoint.success.schema);
    return endpoint.success.list ? { type: 'array', items: one } : one;
  }
  if (status === 202 && governs('notifications.accepted-message', endpoint)) return schemaRef('accepted-message');
  if (status >= 400 && governs('errors.message', endpoint)) return schemaRef('error');
  return undefined;
}

function response(endpoint: Endpoint, status: number, names: VendorNames, example: Example | undefined): Schema {
  const stated = REFUSALS.filter((r) => r.statuses.includes(status) && governs(r.requirement, endpoint)).map((r) => `"${requirement(r.requirement).sentence}"`);
  const description = [meaning(endpoint.doc, status), ...stated].join('\n\n');
  const headers: Record<string, unknown> = {};
  for (const rule of HEADER_RULES) if (governs(rule.requirement, endpoint) && rule.on(endpoint, status)) headers[rule.header(names)] = ref('headers', rule.requirement);
  if (endpoint.category) for (const name of RATE_HEADERS) headers[name] = ref('headers', name);
  const schema = bodySchema(endpoint, status);
  const shown = example ? { examples: { reference: { summary: 'Answered by the reference', value: example.response } } } : {};
  return {
    description,
    ...(Object.keys(headers).length ? { headers } : {}),
    ...(schema ? { content: { [JSON_MEDIA]: { schema, ...shown } } } : {}),
  };
}

/** An OAuth app's client ID and secret sent as Basic credentials: the searches count them as authenticated. */
const CLIENT_SECRET = 'client-id-and-secret';

/** Who may call: anonymous callers where public data is served, then each token kind, with the scopes or permission it needs. */
function security(endpoint: Endpoint): Schema[] {
  const out: Schema[] = endpoint.tokens === 'anonymous-ok' ? [{}] : [];
  for (const [kind, { grants }] of Object.entries(TOKEN_KINDS) as [TokenKind, (typeof TOKEN_KINDS)[TokenKind]][]) {
    if (endpoint.tokens === 'classic-only' && kind !== 'classic') continue;
    if (endpoint.permission?.userToServerOnly && kind === 'app-installation') continue;
    if (grants === 'scopes' && endpoint.scopes) out.push(...endpoint.scopes.map((scope) => ({ [kind]: [scope] })));
    else if (grants === 'permissions' && endpoint.permission) out.push({ [kind]: [`${endpoint.permission.name}:${endpoint.permission.access}`] });
    else out.push({ [kind]: [] });
  }
  if (endpoint.category === 'search') out.push({ [CLIENT_SECRET]: [] });
  return out;
}

function operation(endpoint: Endpoint, names: VendorNames, examples: readonly Example[]): Schema {
  const statuses = new Set([...(endpoint.statuses ?? [endpoint.success.status])]);
  for (const r of REFUSALS) if (governs(r.requirement, endpoint)) r.statuses.forEach((s) => statuses.add(s));
  const exampleOf = (status: number) => examples.find((x) => x.status === status);
  const body = requestBody(endpoint, exampleOf(endpoint.success.status));
  return {
    operationId: endpoint.id,
    tags: [endpoint.area],
    description: `Document ${endpoint.doc}.${endpoint.statuses ? '' : ' Status codes: not shown.'}${endpoint.writes ? ' Changes the target.' : ''}`,
    parameters: parameters(endpoint),
    ...(body ? { requestBody: body } : {}),
    responses: Object.fromEntries([...statuses].sort((a, b) => a - b).map((s) => [String(s), response(endpoint, s, names, exampleOf(s))])),
    security: security(endpoint),
  };
}

function components(names: VendorNames): Schema {
  const bearer = requirement('auth.bearer-and-token-schemes').sentence;
  return {
    schemas: schemaBundle((name, pointer) => `#/components/schemas/${name}${pointer}`),
    parameters: {
      'api-version': {
        name: names.apiVersionHeader, in: 'header', description: requirement('versioning.listed-versions').sentence,
        schema: { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', examples: [...API_VERSIONS] },
      },
    },
    headers: {
      ...Object.fromEntries(HEADER_RULES.map((r) => [r.requirement, { description: requirement(r.requirement).sentence, schema: r.schema }])),
      ...Object.fromEntries(RATE_HEADERS.map((name) => [name, rateHeader(name)])),
    },
    securitySchemes: {
      ...Object.fromEntries(Object.entries(TOKEN_KINDS).map(([kind, { name, grants }]) => [kind, {
        type: 'http', scheme: 'bearer',
        description: `${name[0]!.toUpperCase()}${name.slice(1)}. ${bearer} An operation lists the ${grants ?? 'grants (not shown for this kind)'} the token needs.`,
      }])),
      [CLIENT_SECRET]: { type: 'http', scheme: 'basic', description: `An OAuth app's client ID as username, its client secret as password. "${requirement('ratelimit.search-per-minute').sentence}"` },
    },
  };
}

export function buildOpenApi(options: DocumentOptions): OpenApiDocument {
  const { names } = options;
  const paths: Record<string, Record<string, Schema>> = {};
  for (const endpoint of CATALOGUE) {
    (paths[endpoint.path] ??= {})[endpoint.method.toLowerCase()] = operation(endpoint, names, options.examples.filter((x) => x.endpoint === endpoint));
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Code-hosting platform REST API',
      version: options.version,
      description: `Both spec documents as the conformance suite reads them: generated by \`conformance openapi\` from its endpoint catalogue and resource schemas. `
        + `Send \`Accept: ${names.mediaType}\` (recommended; ${names.mediaTypeV3} also appears). Examples are answers of the reference implementation.`,
    },
    servers: [
      { url: options.origin, description: 'The reference implementation (npx conformance reference --port 8080), which answered the examples' },
      { url: `https://{host}${SELF_HOSTED_PREFIX}`, description: 'A self-hosted installation', variables: { host: { default: 'code.example.com' } } },
    ],
    tags: [...new Set(CATALOGUE.map((e) => e.area))].map((name) => ({ name })),
    paths,
    components: components(names),
  };
}
