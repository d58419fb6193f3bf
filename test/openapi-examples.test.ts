/**
 * GitHub's own published response examples of every in-scope operation, graded by the grader
 * `conformance validate` uses: none fails, except where the spec itself states otherwise
 * (spec/openapi-contradictions.ts, one reason each).
 */
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../spec/catalogue.js';
import { OPENAPI_CONTRADICTIONS } from '../spec/openapi-contradictions.js';
import { validateDocument } from '../core/schemas.js';
import { publishedExamples } from './helpers/openapi-examples.js';

const examples = publishedExamples();
const failures = examples.flatMap((e) =>
  validateDocument(e.schema, JSON.stringify(e.value), e.name).failures.map((f) => ({ example: e.name, path: f.path, message: f.message })));
const explained = (f: { example: string; path: string; message: string }) =>
  OPENAPI_CONTRADICTIONS.some((c) => c.example === f.example && c.path === f.path && c.message === f.message);

describe('GitHub\'s published examples of the catalogue\'s operations', () => {
  it('cover every endpoint of the catalogue that answers a body', () => {
    const covered = new Set(examples.map((e) => e.endpoint.id));
    expect(CATALOGUE.filter((e) => e.success.schema && !covered.has(e.id)).map((e) => e.id)).toEqual([]);
    expect(examples.length).toBeGreaterThanOrEqual(30);
  });

  it('are graded with no failure but the listed contradictions', () => {
    expect(failures.filter((f) => !explained(f))).toEqual([]);
  });

  it('need every listed contradiction, each with its reason', () => {
    for (const c of OPENAPI_CONTRADICTIONS) {
      expect(c.reason.length, c.example).toBeGreaterThan(20);
      expect(failures.some((f) => f.example === c.example && f.path === c.path && f.message === c.message), `${c.example} ${c.path}`).toBe(true);
    }
  });

  it('note absent listed fields as information (requiredness not shown)', () => {
    const search = examples.find((e) => e.name === 'GET /search/code 200 default')!;
    const infos = validateDocument(search.schema, JSON.stringify(search.value), search.name).infos;
    expect(infos).toContainEqual({ path: '/items/0/repository/svn_url', message: 'field "svn_url" absent (requiredness not shown)' });
  });
});
