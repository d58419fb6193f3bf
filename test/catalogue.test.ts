/** The spec-as-data stays honest: ids unique, sentences verbatim, every fault tied to a rule and exercised. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAULTS } from '../reference/faults.js';
import { AREAS } from '../reference/areas/index.js';
import { CATALOGUE } from '../spec/catalogue.js';
import { REQUIREMENTS } from '../spec/requirements/index.js';
import { PACKAGE_ROOT, packagePath } from '../core/paths.js';
import { planChecks } from '../src/runner.js';

const SPEC_DIR = join(PACKAGE_ROOT, '..', 'shared', 'spec');
const flatten = (s: string) => s.replace(/\s+/g, ' ').trim();

function testSources(dir = packagePath('test')): string {
  return readdirSync(dir, { withFileTypes: true })
    .map((e) => (e.isDirectory() ? testSources(join(dir, e.name)) : e.name.endsWith('.ts') ? readFileSync(join(dir, e.name), 'utf8') : ''))
    .join('\n');
}

describe('requirements and faults', () => {
  it('have unique ids', () => {
    const reqIds = REQUIREMENTS.map((r) => r.id);
    expect(new Set(reqIds).size).toBe(reqIds.length);
    const faultIds = FAULTS.map((f) => f.id);
    expect(new Set(faultIds).size).toBe(faultIds.length);
  });

  it('every fault names a known requirement', () => {
    const known = new Set(REQUIREMENTS.map((r) => r.id));
    expect(FAULTS.filter((f) => !known.has(f.requirement)).map((f) => f.id)).toEqual([]);
  });

  it.skipIf(!existsSync(SPEC_DIR))('every requirement quotes the spec verbatim', () => {
    const docs = readdirSync(SPEC_DIR).sort().map((f) => flatten(readFileSync(join(SPEC_DIR, f), 'utf8')));
    const misquoted = REQUIREMENTS.filter((r) => {
      const doc = docs[r.doc - 1] ?? '';
      return !r.sentence.split(' … ').every((part) => doc.includes(flatten(part)));
    });
    expect(misquoted.map((r) => `${r.id}: ${r.sentence}`)).toEqual([]);
  });

  it('every rule a check enforces has a named fault that breaks it (observations of what the spec leaves unshown excepted)', () => {
    const faulted = new Set(FAULTS.map((f) => f.requirement));
    const checks = planChecks({ base_url: 'http://plan.invalid' }, {}).map((p) => p.spec);
    expect(checks.filter((c) => !c.observes && !faulted.has(c.requirement)).map((c) => `${c.id} (${c.requirement})`)).toEqual([]);
  });

  it('every fault is exercised by a test', () => {
    const sources = testSources();
    // A fault scoped to one endpoint (`<fault>@<endpoint>`) is exercised where its unscoped fault is, and per endpoint by the sensitivity test.
    expect(FAULTS.filter((f) => !sources.includes(`'${f.id.split('@')[0]}'`)).map((f) => f.id)).toEqual([]);
  });
});

describe('endpoint catalogue', () => {
  it('holds every endpoint of both documents once', () => {
    const keys = CATALOGUE.map((e) => `${e.method} ${e.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(CATALOGUE.map((e) => e.id)).size).toBe(CATALOGUE.length);
    // Document 1: 5 search, 9 notifications, 9 events, 1 rate limit. Document 2: 4 code scanning, 8 imports.
    const byArea = Object.fromEntries(['search', 'notifications', 'events', 'rate-limit', 'code-scanning', 'imports']
      .map((a) => [a, CATALOGUE.filter((e) => e.area === a).length]));
    expect(byArea).toEqual({ search: 5, notifications: 9, events: 9, 'rate-limit': 1, 'code-scanning': 4, imports: 8 });
  });

  it('has a reference handler for every endpoint', () => {
    const handled = new Set(AREAS.flatMap((a) => Object.keys(a.handlers)));
    expect(CATALOGUE.filter((e) => !handled.has(e.id)).map((e) => e.id)).toEqual([]);
    expect([...handled].filter((id) => !CATALOGUE.some((e) => e.id === id))).toEqual([]);
  });
});
