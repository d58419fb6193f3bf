import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../spec/catalogue.js';
import { GOVERNS } from '../spec/coverage/governs.js';
import { PAIR_REASONS } from '../spec/coverage/exemptions.js';
import { REQUIREMENTS } from '../spec/requirements/index.js';
import { REASON_KINDS } from '../spec/units/index.js';
import { buildMatrix, classify, MATRIX_FILE, observeChecks, staleExemptions, type Matrix } from '../src/coverage.js';
import { packagePath } from '../core/paths.js';

const ENDPOINT_IDS = new Set(CATALOGUE.map((e) => e.id));
const REQUIREMENT_IDS = new Set(REQUIREMENTS.map((r) => r.id));

describe('what each requirement governs', () => {
  it('names every requirement, and only requirements', () => {
    expect(Object.keys(GOVERNS).sort()).toEqual([...REQUIREMENT_IDS].sort());
  });

  it('names existing, distinct catalogue endpoints, and existing requirements as via', () => {
    const bad = Object.entries(GOVERNS).flatMap(([id, g]) => [
      ...(g.endpoints.length ? [] : [`${id}: governs nothing`]),
      ...g.endpoints.filter((e, i) => !ENDPOINT_IDS.has(e) || g.endpoints.indexOf(e) !== i).map((e) => `${id}: ${e}`),
      ...(g.via ?? []).filter((v) => !REQUIREMENT_IDS.has(v)).map((v) => `${id} via ${v}`),
    ]);
    expect(bad).toEqual([]);
  });
});

describe('buildMatrix', () => {
  it('credits a pair to a check of the requirement, or of one it is enforced via, that requested the endpoint', () => {
    const matrix = buildMatrix([
      { check: 'a', requirement: 'resource.code-item', endpoints: ['search.code'] },
      { check: 'b', requirement: 'search.q-required', endpoints: ['search.code', 'search.issues'] },
      { check: 'c', requirement: 'search.q-required', endpoints: ['rate-limit.get'] },
    ]);
    expect(matrix['resource.user']!['search.code']).toEqual(['a']);
    expect(matrix['resource.user']!['search.issues']).toEqual([]);
    expect(matrix['search.q-required']).toEqual({
      'search.code': ['b'], 'search.commits': [], 'search.issues': ['b'], 'search.labels': [], 'search.repositories': [],
    });
  });
});

describe('rule x endpoint coverage of the whole suite', () => {
  let matrix: Matrix;
  beforeAll(async () => {
    matrix = buildMatrix(await observeChecks());
  }, 120_000);

  it('matches the committed spec/coverage/matrix.json (regenerate: npm run coverage -- --write)', () => {
    const committed = JSON.parse(readFileSync(packagePath(...MATRIX_FILE), 'utf8')) as Matrix;
    expect(committed).toEqual(matrix);
  });

  it('leaves no pair uncovered without a reason or a place in the known-uncovered list', () => {
    const loose = classify(matrix).filter((p) => p.state.status === 'uncovered').map((p) => `${p.requirement} x ${p.endpoint}`);
    expect(loose).toEqual([]);
  });

  it('keeps the exemption lists to uncovered governed pairs, so they only shrink', () => {
    expect(staleExemptions(matrix)).toEqual([]);
  });

  it('gives every reasoned pair a known kind and its own explanation', () => {
    const bad = Object.entries(PAIR_REASONS).flatMap(([r, eps]) => Object.entries(eps)
      .filter(([, reason]) => !(reason.kind in REASON_KINDS) || reason.why.trim().length < 10).map(([e]) => `${r} x ${e}`));
    expect(bad).toEqual([]);
  });
});
