/**
 * The resource schemas, and the shared definitions they use, as one set of local definitions: the
 * OpenAPI export's components/schemas and the input of the generated TypeScript types. Each file
 * loses its `$id` and `$schema`, and a reference to another file points into the set instead, so
 * tools that do not resolve `$id`s read it as well as those that do.
 */
import { schemaNames, schemaOf } from './schemas.js';

export type Schema = Record<string, unknown>;

/** `user.schema.json`, `common.schema.json#/$defs/url`: a file of schemas/ and a pointer into it. */
const FILE_REF = /^([a-z0-9-]+)\.schema\.json(?:#(.*))?$/;

/** The shared definitions file: no resource of its own, but resources point into it. */
const SHARED = 'common';

function rewritten(node: unknown, target: (name: string, pointer: string) => string, names: ReadonlySet<string>): unknown {
  if (Array.isArray(node)) return node.map((n) => rewritten(n, target, names));
  if (!node || typeof node !== 'object') return node;
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$id' || key === '$schema') continue;
    if (key === '$ref' && typeof value === 'string') {
      const m = FILE_REF.exec(value);
      if (!m || !names.has(m[1]!)) throw new Error(`schema reference ${value} points outside the resource schemas`);
      out[key] = target(m[1]!, m[2] ?? '');
    } else {
      out[key] = rewritten(value, target, names);
    }
  }
  return out;
}

/**
 * Every resource schema and the shared definitions, by name in name order; `target(name, pointer)`
 * says where a reference to a file (and a pointer into it, '' for the whole) points now.
 */
export function schemaBundle(target: (name: string, pointer: string) => string): Record<string, Schema> {
  const names = [SHARED, ...schemaNames()].sort();
  const known = new Set(names);
  return Object.fromEntries(names.map((name) => [name, rewritten(schemaOf(name), target, known) as Schema]));
}
