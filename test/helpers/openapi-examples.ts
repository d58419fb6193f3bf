/**
 * GitHub's published response examples for the operations of the catalogue, read at test time
 * from the pinned @octokit/openapi package (never copied into the repository).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { CATALOGUE, type Endpoint } from '../../spec/catalogue.js';

export interface PublishedExample {
  endpoint: Endpoint;
  /** The catalogue's success schema, the resource `validate` grades the example as. */
  schema: string;
  /** e.g. `GET /repos/{owner}/{repo}/import 200 default`. */
  name: string;
  value: unknown;
}

type Json = Record<string, unknown>;

/** The api.github.com description: GitHub's own platform, not an enterprise server. */
export function loadDescription(): Json {
  const file = createRequire(import.meta.url).resolve('@octokit/openapi/generated/api.github.com.json');
  return JSON.parse(readFileSync(file, 'utf8')) as Json;
}

function resolve(root: Json, node: unknown): unknown {
  const ref = (node as { $ref?: unknown } | undefined)?.$ref;
  if (typeof ref !== 'string') return node;
  let at: unknown = root;
  for (const key of ref.replace(/^#\//, '').split('/')) at = (at as Json)[key.replace(/~1/g, '/').replace(/~0/g, '~')];
  return resolve(root, at);
}

/** Every JSON example of the success response of every catalogue endpoint that has a success schema. */
export function publishedExamples(description: Json = loadDescription()): PublishedExample[] {
  const paths = description.paths as Record<string, Record<string, Json>>;
  const out: PublishedExample[] = [];
  for (const endpoint of CATALOGUE) {
    const schema = endpoint.success.schema;
    if (!schema) continue;
    const operation = paths[endpoint.path]?.[endpoint.method.toLowerCase()];
    if (!operation) throw new Error(`the description has no ${endpoint.method} ${endpoint.path}`);
    const response = resolve(description, (operation.responses as Json)[String(endpoint.success.status)]) as Json | undefined;
    const media = (response?.content as Record<string, Json> | undefined)?.['application/json'];
    const examples = (media?.examples ?? {}) as Record<string, unknown>;
    for (const [key, example] of Object.entries(examples)) {
      const value = (resolve(description, example) as { value?: unknown }).value;
      out.push({ endpoint, schema, name: `${endpoint.method} ${endpoint.path} ${endpoint.success.status} ${key}`, value });
    }
    if (media && 'example' in media) out.push({ endpoint, schema, name: `${endpoint.method} ${endpoint.path} ${endpoint.success.status} example`, value: media.example });
  }
  return out;
}
