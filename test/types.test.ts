/**
 * The exported TypeScript types (types/index.d.ts): generated from the schemas and committed, so
 * the package needs no build step to offer them; real answers of the reference type-check against
 * them, and an answer with a field of the wrong type does not.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../spec/catalogue.js';
import { referenceExamples, type Example } from '../src/openapi/examples.js';
import { TYPES_FILE, generateTypes, typeName } from '../scripts/types.js';
import { typeErrors } from './helpers/typecheck.js';

/** The reference's success answers: each endpoint's resource. */
let examples: Example[];
beforeAll(async () => {
  examples = (await referenceExamples()).filter((x) => x.status === x.endpoint.success.status);
});

/** A TypeScript file declaring each answer as a constant of its resource's type, in a fresh folder. */
function declared(answers: readonly { schema: string; list: boolean; value: unknown }[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'types-'));
  const file = join(dir, 'answers.ts');
  const types = relative(dirname(file), TYPES_FILE).replace(/\.d\.ts$/, '.js');
  const lines = answers.map((a, i) => `export const answer${i}: T.${typeName(a.schema)}${a.list ? '[]' : ''} = ${JSON.stringify(a.value)};`);
  writeFileSync(file, [`import type * as T from '${types.startsWith('.') ? types : `./${types}`}';`, ...lines].join('\n'));
  return file;
}

const answersOf = (list: readonly Example[]) => list.map((x) => ({ schema: x.endpoint.success.schema!, list: !!x.endpoint.success.list, value: x.response }));

describe('exported types', () => {
  it('are the ones the schemas generate now (npm run types writes them)', async () => {
    expect(readFileSync(TYPES_FILE, 'utf8')).toBe(await generateTypes());
  });

  it('fit a real answer of the reference for every endpoint that answers with a body', () => {
    expect(examples.map((x) => x.endpoint.id)).toEqual(CATALOGUE.filter((e) => e.success.schema).map((e) => e.id));
    expect(typeErrors([declared(answersOf(examples))])).toEqual([]);
  });

  it('refuse an answer with one field of the wrong type, or a state outside its enum', () => {
    const rate = examples.find((x) => x.endpoint.id === 'rate-limit.get')!;
    const wrongType = structuredClone(rate.response) as { resources: { core: { limit: unknown } } };
    wrongType.resources.core.limit = '5000';
    const alert = examples.find((x) => x.endpoint.id === 'code-scanning.alert')!;
    const wrongState = { ...(alert.response as object), state: 'closed' };
    const errors = typeErrors([declared([{ schema: 'rate-limit', list: false, value: wrongType }, { schema: 'code-scanning-alert-single', list: false, value: wrongState }])]);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/answers\.ts:2: Type 'string' is not assignable to type 'number'/);
    expect(errors[1]).toMatch(/answers\.ts:3: Type '"closed"' is not assignable to type '.*"dismissed"/);
  });

  it('let a field be absent where the spec does not state it present', () => {
    const { number: _number, ...withoutNumber } = examples.find((x) => x.endpoint.id === 'code-scanning.alert')!.response as Record<string, unknown>;
    const { resources: _resources, ...withoutResources } = examples.find((x) => x.endpoint.id === 'rate-limit.get')!.response as Record<string, unknown>;
    const errors = typeErrors([declared([{ schema: 'code-scanning-alert-single', list: false, value: withoutNumber }, { schema: 'rate-limit', list: false, value: withoutResources }])]);
    // The rate-limit status states `resources` present: only its absence fails.
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/answers\.ts:3: Property 'resources' is missing/);
  });
});
