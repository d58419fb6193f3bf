/** The grader on small hand-written documents: each kind of violation, graded as precisely as the spec states. */
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../spec/catalogue.js';
import { RATE_CATEGORIES } from '../spec/limits.js';
import { ALERT_STATES, DISMISSED_REASONS, IMPORT_STATUSES, NOTIFICATION_REASONS, USE_LFS_VALUES } from '../spec/vocabulary.js';
import { grade, schemaNames, schemaOf, validateDocument } from '../core/schemas.js';

const subscription = () => ({
  subscribed: true, ignored: false, reason: null, created_at: '2026-01-02T03:04:05Z',
  url: 'http://x.invalid/notifications/threads/1/subscription', thread_url: 'http://x.invalid/notifications/threads/1',
});
const author = () => ({ id: 1, remote_id: 'a@b', remote_name: 'a', email: 'a@example.invalid', name: 'A', url: 'u', import_url: 'u' });

describe('grade', () => {
  it('passes a valid resource, nullable nulls, URI templates and extra fields', () => {
    expect(grade('thread-subscription', subscription())).toEqual({ failures: [], warnings: [], infos: [] });
    const withExtra = { ...author(), url: 'http://x.invalid/authors{/id}', avatar: 'extra' };
    expect(grade('import-author', withExtra).failures).toEqual([]);
  });

  it('fails a wrong type, naming the place', () => {
    const g = grade('import-author', { ...author(), id: '1' });
    expect(g.failures).toEqual([{ path: '/id', message: 'expected integer, got string "1"' }]);
  });

  it('notes, without failing, a listed field that is absent (requiredness not shown)', () => {
    const { email: _email, ...rest } = author();
    const g = grade('import-author', rest);
    expect(g.failures).toEqual([]);
    expect(g.infos).toEqual([{ path: '/email', message: 'field "email" absent (requiredness not shown)' }]);
    // Nested, and through a nullable alternative: an embedded user without gravatar_id is no failure either.
    const alert = grade('code-scanning-alert', { number: 1, dismissed_by: { login: 'a', id: 1 }, rule: {} });
    expect(alert.failures).toEqual([]);
    expect(alert.infos).toContainEqual({ path: '/dismissed_by/gravatar_id', message: 'field "gravatar_id" absent (requiredness not shown)' });
    expect(alert.infos).toContainEqual({ path: '/rule/severity', message: 'field "severity" absent (requiredness not shown)' });
  });

  it('notes no absence of a stated-optional or deprecated field', () => {
    const g = grade('event', { id: '1', type: 'WatchEvent', actor: {}, repo: {}, payload: { action: 'started' }, public: true, created_at: '2026-01-02T03:04:05Z' });
    expect(g.infos.map((f) => f.path)).not.toContain('/org');
    expect(grade('rate-limit', { resources: {} }).infos.map((f) => f.path)).not.toContain('/rate');
  });

  it('fails absence where the spec states presence, and presence where it states absence', () => {
    const alert = { number: 1, state: 'open' };
    expect(grade('code-scanning-alert-org', alert).failures).toEqual([{ path: '/', message: 'field "repository" absent where the spec states it present' }]);
    expect(grade('code-scanning-alert', { ...alert, repository: {} }).failures).toEqual([{ path: '/repository', message: 'field present where the spec states it absent' }]);
    const categories = grade('rate-limit', { resources: { core: {} } }).failures.map((f) => f.message);
    expect(categories).toEqual(RATE_CATEGORIES.filter((c) => c !== 'core').map((c) => `field "${c}" absent where the spec states it present`));
  });

  it('fails a timestamp in another form', () => {
    for (const created_at of ['2026-01-02T03:04:05.123Z', '2026-01-02T03:04:05+00:00', '2026-01-02']) {
      const g = grade('thread-subscription', { ...subscription(), created_at });
      expect(g.failures.map((f) => f.message), created_at).toEqual([`expected a timestamp of the form YYYY-MM-DDTHH:MM:SSZ, got "${created_at}"`]);
    }
  });

  it('fails a value outside an enum', () => {
    const g = grade('large-file', { ref_name: 'r', path: 'p', oid: 'o', size: 1 });
    expect(g.failures).toEqual([]);
    const bad = grade('notification-thread', { reason: 'watching' });
    expect(bad.failures.map((f) => f.message)).toEqual([expect.stringMatching(/^expected one of .*, got "watching"$/)]);
  });

  it('warns, without failing, on null where nullability is not shown', () => {
    const g = grade('import-author', { ...author(), name: null });
    expect(g.failures).toEqual([]);
    expect(g.warnings).toEqual([{ path: '/name', message: 'null where the spec does not state the field nullable (nullability not shown)' }]);
  });

  it('grades every item of a list and reports extra fields as information only in strict mode', () => {
    const list = [author(), { ...author(), id: 'x', extra_field: 1 }];
    expect(grade('import-author', list, { list: true }).failures.map((f) => f.path)).toEqual(['/1/id']);
    expect(grade('import-author', list, { list: true }).infos).toEqual([]);
    expect(grade('import-author', list, { list: true, strict: true }).infos).toEqual([{ path: '/1/extra_field', message: 'field "extra_field" is not described by the spec' }]);
  });

  it('requires the import fields the record table states present, in their state only', () => {
    const base = { vcs: 'git', vcs_url: 'https://x.invalid/r', url: 'u', html_url: 'u', authors_url: 'u', repository_url: 'u' };
    const absentIn = (status: string) => grade('import', { ...base, status }).failures.map((f) => f.message);
    expect(absentIn('complete')).toEqual([]);
    // "commit_count | integer, present while importing"; percent is "0 to 100, during importing" and push_percent "during pushing": presence not stated.
    expect(absentIn('importing')).toEqual(['field "commit_count" absent where the spec states it present']);
    expect(absentIn('pushing')).toEqual([]);
    expect(absentIn('error')).toEqual(['field "failed_step" absent where the spec states it present']);
    expect(absentIn('detection_found_multiple')).toEqual(['field "project_choices" absent where the spec states it present']);
    expect(grade('import', { ...base, status: 'importing', commit_count: 1, percent: 101 }).failures.map((f) => f.path)).toEqual(['/percent']);
    expect(grade('import', { ...base, status: 'complete', use_lfs: true }).failures).toEqual([]);
    expect(grade('import', { ...base, status: 'stalled' }).failures[0]!.message).toMatch(/expected one of/);
  });

  it('validates a saved document with one-line errors', () => {
    expect(validateDocument('large-file', '[{"ref_name":"r","path":"p","oid":"o","size":"big"}]', 'f.json').failures).toHaveLength(1);
    expect(() => validateDocument('large-file', '{', 'f.json')).toThrow(/f\.json: not valid JSON/);
    expect(() => validateDocument('nonsense', '{}', 'f.json')).toThrow(/unknown resource "nonsense"/);
  });
});

describe('schemas as data', () => {
  const enumOf = (name: string, ...path: string[]) => {
    let node: unknown = schemaOf(name);
    for (const p of path) node = (node as Record<string, unknown>)[p];
    return node;
  };

  it('state enums exactly as spec/vocabulary.ts holds them', () => {
    expect(enumOf('notification-thread', 'properties', 'reason', 'enum')).toEqual([...NOTIFICATION_REASONS]);
    expect(enumOf('code-scanning-alert', 'properties', 'state', 'enum')).toEqual([...ALERT_STATES]);
    expect(enumOf('code-scanning-alert', 'properties', 'dismissed_reason', 'enum')).toEqual([null, ...DISMISSED_REASONS]);
    expect(enumOf('import', 'properties', 'status', 'enum')).toEqual([...IMPORT_STATUSES]);
    expect(enumOf('import', 'properties', 'use_lfs', 'enum')).toEqual([...USE_LFS_VALUES, true, false]);
    expect(Object.keys(enumOf('rate-limit', 'properties', 'resources', 'properties') as object)).toEqual([...RATE_CATEGORIES]);
    expect(enumOf('rate-limit', 'properties', 'resources', 'required')).toEqual([...RATE_CATEGORIES]);
  });

  it('cover every success body the catalogue names, and every resource of both documents', () => {
    const names = schemaNames();
    for (const e of CATALOGUE) if (e.success.schema) expect(names, e.id).toContain(e.success.schema);
    for (const resource of ['user', 'repository', 'search-envelope', 'label', 'milestone', 'text-matches', 'code-search-item', 'commit-search-item',
      'issue-search-item', 'label-search-item', 'repository-search-item', 'notification-thread', 'thread-subscription', 'event', 'rate-limit',
      'code-scanning-alert', 'code-scanning-alert-single', 'code-scanning-alert-org', 'import', 'import-author', 'large-file', 'error', 'accepted-message']) {
      expect(names).toContain(resource);
    }
  });
});
