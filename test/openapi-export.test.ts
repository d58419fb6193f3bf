/**
 * `conformance openapi`: the OpenAPI 3.1 export validates with an independent validator, each
 * example fits its schema, the document says what the spec says where it is easy to read off the
 * spec's text, and the same build writes the same bytes.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../spec/catalogue.js';
import { vendorNames } from '../spec/vendor.js';
import { grade } from '../core/schemas.js';
import { buildOpenApi, type OpenApiDocument } from '../src/openapi/document.js';
import { EXAMPLE_ORIGIN, referenceExamples, type Example } from '../src/openapi/examples.js';
import { runCli } from './helpers/cli.js';
import { TOKENS } from './helpers/reference.js';

type Json = Record<string, any>;
let examples: Example[];
let doc: Json;
const build = (vendor?: string): OpenApiDocument => buildOpenApi({ version: '0.0.0-test', names: vendorNames(vendor), origin: EXAMPLE_ORIGIN, examples });

beforeAll(async () => {
  examples = await referenceExamples();
  doc = build();
});

const validate = async (document: Record<string, unknown>) => new Validator().validate(document);
const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** Every example of the document: where it is, the pointer to the schema it stands beside, and its value. */
function examplesOf(document: Json): { at: string; schema: string; value: unknown }[] {
  const out: { at: string; schema: string; value: unknown }[] = [];
  for (const [path, operations] of Object.entries<Json>(document.paths)) {
    for (const [method, op] of Object.entries<Json>(operations)) {
      const base = `#/paths/${escape(path)}/${method}`;
      const media: [string, Json | undefined][] = [
        [`${base}/requestBody/content/application~1json`, op.requestBody?.content?.['application/json']],
        ...Object.entries<Json>(op.responses).map(([status, r]): [string, Json | undefined] => [`${base}/responses/${status}/content/application~1json`, r.content?.['application/json']]),
      ];
      for (const [at, m] of media) {
        for (const [name, ex] of Object.entries<Json>(m?.examples ?? {})) out.push({ at: `${at}/examples/${name}`, schema: `${at}/schema`, value: ex.value });
      }
    }
  }
  return out;
}

describe('the OpenAPI export', () => {
  it('validates as OpenAPI 3.1 with @seriousme/openapi-schema-validator', async () => {
    const result = await validate(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('fails that validator when broken: a response without its description, a $ref to no schema', async () => {
    const undescribed = structuredClone(doc);
    delete undescribed.paths['/events'].get.responses['200'].description;
    const result = await validate(undescribed);
    expect(result.valid).toBe(false);
    expect(result.errors).toContainEqual(expect.objectContaining({ instancePath: '/paths/~1events/get/responses/200', params: { missingProperty: 'description' } }));
    const dangling = structuredClone(doc);
    dangling.paths['/events'].get.responses['200'].content['application/json'].schema.items.$ref = '#/components/schemas/no-such-resource';
    expect((await validate(dangling)).valid).toBe(false);
  });

  it('holds a response example from the reference for every endpoint that answers with a body, and request examples for writes', () => {
    const all = examplesOf(doc);
    const successes = CATALOGUE.filter((e) => e.success.schema).map((e) => `#/paths/${escape(e.path)}/${e.method.toLowerCase()}/responses/${e.success.status}/content/application~1json/examples/reference`);
    expect(all.map((x) => x.at)).toEqual(expect.arrayContaining(successes));
    expect(all.filter((x) => x.at.includes('/requestBody/')).map((x) => x.at.split('/').slice(2, 4).join(' ')).sort()).toEqual(
      CATALOGUE.filter((e) => e.params.some((p) => p.in === 'body') && e.success.schema).map((e) => `${escape(e.path)} ${e.method.toLowerCase()}`).sort());
  });

  it('shows how the reference words a refusal: "Validation failed" for a search q over 256 characters', () => {
    const refusals = examplesOf(doc).filter((x) => /\/responses\/4\d\d\//.test(x.at));
    expect(refusals.length).toBeGreaterThanOrEqual(3);
    expect(doc.paths['/search/issues'].get.responses['422'].content['application/json'].examples.reference.value).toMatchObject({ message: 'Validation failed' });
    expect(doc.paths['/repos/{owner}/{repo}/import'].get.responses['404'].content['application/json'].examples.reference.value).toHaveProperty('message');
  });

  it('has every example fit the schema beside it (ajv, JSON Schema 2020-12), and grade without failure or warning', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema(doc, 'openapi.json');
    const misfits = examplesOf(doc).flatMap((x) => {
      const check = ajv.getSchema(`openapi.json${x.schema}`)!;
      return check(x.value) ? [] : [`${x.at}: ${ajv.errorsText(check.errors)}`];
    });
    expect(misfits).toEqual([]);
    const graded = examples.map((x) => {
      const success = x.status === x.endpoint.success.status;
      return { id: x.endpoint.id, status: x.status, ...grade(success ? x.endpoint.success.schema! : 'error', x.response, { list: success && !!x.endpoint.success.list }) };
    });
    expect(graded.filter((g) => g.failures.length || g.warnings.length)).toEqual([]);
  });

  it('refuses an example that does not fit its schema (the check above can fail)', () => {
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema(doc, 'openapi.json');
    const check = ajv.getSchema('openapi.json#/paths/~1rate_limit/get/responses/200/content/application~1json/schema')!;
    expect(check({ resources: { core: { limit: 'many' } } })).toBe(false);
  });

  it('builds components from the schemas, each compiling as strict JSON Schema 2020-12, and points into them', () => {
    const ajv = new Ajv2020({ strict: true, strictRequired: false, keywords: ['x-optional', 'components'] });
    ajv.addSchema({ components: doc.components }, 'openapi.json');
    for (const name of Object.keys(doc.components.schemas)) expect(ajv.getSchema(`openapi.json#/components/schemas/${name}`), name).toBeTypeOf('function');
    const misspelt = new Ajv2020({ strict: true, keywords: ['components'] });
    misspelt.addSchema({ components: { schemas: { user: { type: 'object', properties: { login: { type: 'strnig' } } } } } }, 'openapi.json');
    expect(() => misspelt.getSchema('openapi.json#/components/schemas/user')).toThrow(/strnig/);
    expect(doc.paths['/notifications/threads/{thread_id}'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/notification-thread' });
    expect(doc.paths['/events'].get.responses['200'].content['application/json'].schema).toEqual({ type: 'array', items: { $ref: '#/components/schemas/event' } });
    expect(JSON.stringify(doc)).not.toMatch(/\.schema\.json|"\$id"/);
  });

  it('names the security schemes of the token kinds the spec names, and who may call what', () => {
    const schemes = doc.components.securitySchemes as Json;
    const bearer = Object.entries<Json>(schemes).filter(([, s]) => s.type === 'http' && s.scheme === 'bearer').map(([kind]) => kind);
    expect(bearer.sort()).toEqual(['app-installation', 'app-user', 'classic', 'fine-grained', 'oauth', 'workflow']);
    // "Search requests per minute, authenticated (basic, OAuth, client ID and secret)".
    expect(schemes['client-id-and-secret']).toMatchObject({ type: 'http', scheme: 'basic' });
    expect(doc.paths['/search/code'].get.security).toContainEqual({ 'client-id-and-secret': [] });
    // "Notification endpoints accept only a classic personal access token" with "the notifications or repo scope".
    expect(doc.paths['/notifications'].get.security).toEqual([{ classic: ['notifications'] }, { classic: ['repo'] }]);
    // "Anonymous requests work for public data": the public event stream lets a caller without a token in.
    expect(doc.paths['/events'].get.security).toContainEqual({});
    // "App tokens need permission security_events, read for GET, write for PATCH."
    const update = doc.paths['/repos/{owner}/{repo}/code-scanning/alerts/{alert_number}'].patch.security as Json[];
    expect(update).toContainEqual({ 'app-installation': ['security_events:write'] });
    expect(update).not.toContainEqual({});
  });

  it('puts the poll, conditional and rate-limit headers on the answers the spec states them for', () => {
    const events = doc.paths['/events'].get.responses;
    expect(Object.keys(events['200'].headers)).toEqual(expect.arrayContaining(['X-Poll-Interval', 'ETag', 'x-ratelimit-remaining', 'x-ratelimit-reset']));
    expect(Object.keys(events['304'].headers)).toContain('X-Poll-Interval');
    expect(Object.keys(doc.paths['/notifications'].get.responses['200'].headers)).toEqual(expect.arrayContaining(['X-Poll-Interval', 'Last-Modified']));
    // "Calling it does not count against the REST rate limit."
    expect(JSON.stringify(doc.paths['/rate_limit'].get.responses)).not.toContain('x-ratelimit');
    expect(doc.components.headers['poll.interval-header'].description).toContain('minimum seconds between polls');
    expect(doc.components.headers['x-ratelimit-resource'].schema.enum).toEqual(['core', 'search', 'graphql', 'integration_manifest', 'code_scanning_upload']);
    // Single sign-on: "On that 403, header `X-Service-SSO` holds a URL to authorize the token".
    expect(Object.keys(doc.paths['/orgs/{org}/events'].get.responses['403'].headers)).toContain('X-Service-SSO');
  });

  it('lists the statuses of each endpoint\'s table, the refusals every endpoint may give, and error bodies with their message', () => {
    const search = doc.paths['/search/issues'].get.responses as Json;
    // The table's, and 401 from "Invalid credentials first give 401": no 404, as public data needs no token.
    expect(Object.keys(search)).toEqual(['200', '304', '401', '403', '422', '503']);
    expect(search['422'].description).toBe('Validation failed, or the endpoint has been spammed');
    expect(search['422'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/error' });
    expect(search['401'].description).toContain('Invalid credentials first give 401.');
    // Document 2's own words for its statuses.
    expect(doc.paths['/repos/{owner}/{repo}/import'].delete.responses['204'].description).toBe('import cancelled');
    expect(doc.paths['/repos/{owner}/{repo}/import'].delete.responses['204'].content).toBeUndefined();
    // "202 body {message string}; 205 empty".
    const markRead = doc.paths['/notifications'].put.responses;
    expect(markRead['202'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/accepted-message' });
    expect(markRead['205'].content).toBeUndefined();
    expect(doc.paths['/search/repositories'].get.description).toContain('Status codes: not shown.');
  });

  it('takes parameters from the catalogue: required, enums, defaults, page-size caps', () => {
    const params = (path: string, method = 'get') => Object.fromEntries((doc.paths[path][method].parameters as Json[]).filter((p) => p.name).map((p) => [p.name, p]));
    expect(params('/search/labels').repository_id).toEqual({ name: 'repository_id', in: 'query', required: true, schema: { type: 'integer' } });
    expect(params('/notifications').per_page.schema).toEqual({ type: 'integer', maximum: 50, default: 50 });
    expect(params('/repos/{owner}/{repo}/notifications').per_page.schema).toEqual({ type: 'integer', maximum: 100, default: 30 });
    expect(params('/orgs/{org}/code-scanning/alerts').direction.schema).toEqual({ type: 'string', enum: ['asc', 'desc'], default: 'desc' });
    expect(doc.components.parameters['api-version']).toMatchObject({ name: 'X-Service-Api-Version', in: 'header', schema: { examples: ['2022-11-28', '2026-03-10'] } });
    const start = doc.paths['/repos/{owner}/{repo}/import'].put.requestBody;
    expect(start.required).toBe(true);
    expect(start.content['application/json'].schema.required).toEqual(['vcs_url']);
  });

  it('names headers and media types with the vendor word (--vendor github)', async () => {
    const github = build('github') as Json;
    expect(github.components.parameters['api-version'].name).toBe('X-GitHub-Api-Version');
    expect(Object.keys(github.paths['/orgs/{org}/events'].get.responses['403'].headers)).toContain('X-GitHub-SSO');
    expect(github.info.description).toContain('application/vnd.github+json');
    expect((await validate(github)).valid).toBe(true);
  });
});

describe('conformance openapi', () => {
  it('writes the same bytes twice, naming no port of the run and no token of the reference', async () => {
    const [first, second] = [await runCli(['openapi']), await runCli(['openapi'])];
    expect(first.status).toBe(0);
    expect(first.stderr).toBe('');
    expect(second.stdout).toBe(first.stdout);
    expect(JSON.parse(first.stdout).paths).toEqual(doc.paths);
    expect([...new Set(first.stdout.match(/127\.0\.0\.1:\d+/g))]).toEqual(['127.0.0.1:8080']);
    for (const token of Object.values(TOKENS)) expect(first.stdout).not.toContain(token);
  });

  it('refuses a wrong vendor word in one line, exit 2', async () => {
    const r = await runCli(['openapi', '--vendor', 'Git Hub']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('conformance: --vendor must be a lowercase word such as service or github, got "Git Hub"\n');
  });
});
