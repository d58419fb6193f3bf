/**
 * Compiles the schemas into core/validators.ts's module (dist/core/validators.cjs), with Ajv's
 * standalone code: run by `npm run build` after tsc, so every build ships validators of the
 * schemas it was built with. What grading needs beyond the schemas as written is added here:
 * - each object schema that lists properties notes the listed ones that are absent (as
 *   information: requiredness is not shown), except deprecated, stated-optional (`x-optional`)
 *   and stated-absent (`false`) ones;
 * - a strict copy refuses undescribed properties wherever properties are described;
 * - each resource has a list form, an array of it.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type * as Ajv from 'ajv/dist/2020.js';
import type * as Codegen from 'ajv/dist/compile/codegen/index.js';
import type Names from 'ajv/dist/compile/names.js';
import type Standalone from 'ajv/dist/standalone/index.js';
import { schemaFiles, schemasHash, validatorKey, VALIDATORS_FILE } from '../core/validators.js';

// Ajv's modules are CommonJS, whose default export Node and vitest import differently: required, they are the same.
const require = createRequire(import.meta.url);
const { Ajv2020 } = require('ajv/dist/2020.js') as typeof Ajv;
const { _, strConcat } = require('ajv/dist/compile/codegen/index.js') as typeof Codegen;
const N = (require('ajv/dist/compile/names.js') as typeof Names).default;
const standaloneCode = (require('ajv/dist/standalone/index.js') as typeof Standalone).default;

const BASE = 'https://conformance.invalid/schemas/';
const STRICT_BASE = 'https://conformance.invalid/schemas/strict/';
/** Schemas that describe files, not answers: the profile has a validator of its own; the report none. */
const NOT_GRADED = new Set(['profile', 'report']);
/** The keyword, added to the compiled copies only, that notes absent listed fields without failing. */
const LISTED = 'listedFields';

type Schema = Record<string, unknown>;

function withListed(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withListed);
  if (!node || typeof node !== 'object') return node;
  const out: Schema = {};
  // `if` conditions only choose a branch: nothing in them is noted.
  for (const [k, v] of Object.entries(node)) out[k] = k === 'if' ? v : withListed(v);
  const props = out.properties as Record<string, unknown> | undefined;
  if (props) {
    const listed = Object.entries(props).filter(([, p]) => p !== false && !(p as Schema).deprecated && !(p as Schema)['x-optional']).map(([name]) => name);
    if (listed.length) out[LISTED] = listed;
  }
  return out;
}

function strictCopy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strictCopy);
  if (!node || typeof node !== 'object') return node;
  const out: Schema = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === '$id' && typeof v === 'string' ? v.replace(BASE, STRICT_BASE) : strictCopy(v);
  if ('properties' in out && !('unevaluatedProperties' in out)) out.unevaluatedProperties = false;
  return out;
}

/**
 * The keyword's code: for each listed field absent from the object, `[instancePath, field]` goes
 * to the caller's `this.absent` (passContext), and validity is untouched, so an `anyOf` branch is
 * chosen as without it.
 */
function listedFieldsCode(cxt: Ajv.KeywordCxt): void {
  const { gen, data, schema, it } = cxt;
  for (const field of schema as string[]) {
    gen.if(_`!(${field} in ${data})`, () => gen.code(_`${N.this}.absent.push([${strConcat(N.instancePath, it.errorPath)}, ${field}])`));
  }
}

/** One standalone module's code as an expression: its exports. */
const asExpression = (code: string) => `(() => {\nconst module = { exports: {} }; const exports = module.exports;\n${code}\nreturn module.exports;\n})()`;

/** The module's source. */
export function generateValidators(): string {
  const files = schemaFiles();
  const code: Ajv.Options['code'] = { source: true, lines: true };
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, passContext: true, code });
  ajv.addKeyword('x-optional');
  ajv.addKeyword({ keyword: LISTED, type: 'object', schemaType: 'array', errors: false, code: listedFieldsCode });
  const exported: Record<string, string> = {};
  let profile: Schema | undefined;
  for (const [file, text] of files) {
    const name = file.replace('.schema.json', '');
    const schema = JSON.parse(text) as Schema;
    if (name === 'profile') profile = schema;
    if (NOT_GRADED.has(name)) continue;
    const graded = withListed(schema) as Schema;
    ajv.addSchema(graded);
    ajv.addSchema(strictCopy(graded) as Schema);
    for (const strict of [false, true]) {
      const base = strict ? STRICT_BASE : BASE;
      const listId = `${base}list/${name}.schema.json`;
      ajv.addSchema({ $id: listId, type: 'array', items: { $ref: `${base}${name}.schema.json` } });
      exported[validatorKey(name, false, strict)] = `${base}${name}.schema.json`;
      exported[validatorKey(name, true, strict)] = listId;
    }
  }
  if (!profile) throw new Error('schemas/profile.schema.json is missing');
  const profileAjv = new Ajv2020({ allErrors: false, strict: true, code });
  return [
    '// Generated by scripts/validators.ts (npm run build) from schemas/*.schema.json: do not edit.',
    '"use strict";',
    `exports.hash = ${JSON.stringify(schemasHash(files))};`,
    `exports.resources = ${asExpression(standaloneCode(ajv, exported))};`,
    `exports.profile = ${asExpression(standaloneCode(profileAjv, profileAjv.compile(profile)))};`,
    '',
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // Whole or not at all: a process loading it meanwhile sees the old module or the new one.
  const temporary = `${VALIDATORS_FILE}.${process.pid}.tmp`;
  writeFileSync(temporary, generateValidators());
  renameSync(temporary, VALIDATORS_FILE);
}
