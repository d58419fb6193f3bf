/**
 * The permission matrix as data stays faithful to document 2: counts per category made by hand
 * from the spec text, no duplicates, full paths, the catalogue agreeing with it, and the generated
 * docs/permissions.md matching the data.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PERMISSIONS_DOC, renderPermissionsDoc } from '../scripts/permissions-doc.js';
import { CATALOGUE } from '../spec/catalogue.js';
import { MATRIX_CATEGORIES, PERMISSION_MATRIX, type MatrixRow } from '../spec/permissions.js';
import { vendorNames } from '../spec/vendor.js';
import type { Client, Reply } from '../core/client.js';
import type { Journal } from '../core/journal.js';
import type { Profile } from '../core/profile.js';
import { CheckContext } from '../core/suite.js';
import { permissionsSuite } from '../suites/permissions.js';
import { judgeHeader } from '../suites/permission-tokens.js';

/**
 * Counted by hand from the spec's "Permission matrix for app tokens", one per method and path
 * ("GET and POST X" is two), rows the spec lists twice counted once; [U] and [+] as marked
 * ("(all [+])", "(all except two rows are [+])" applied).
 */
const HAND_COUNT: Record<string, { admin: number; write: number; read: number; uatOnly: number; multiple: number }> = {
  'Organization permissions: Administration': { admin: 0, write: 35, read: 18, uatOnly: 0, multiple: 11 },
  'Organization permissions: Assistant Business': { admin: 0, write: 4, read: 5, uatOnly: 0, multiple: 9 },
  'Organization permissions: Members': { admin: 0, write: 19, read: 14, uatOnly: 4, multiple: 0 },
  'Organization permissions: Projects': { admin: 4, write: 11, read: 6, uatOnly: 0, multiple: 19 },
  'Organization permissions: Self-hosted runners': { admin: 0, write: 17, read: 8, uatOnly: 0, multiple: 2 },
  'Repository permissions: Actions': { admin: 0, write: 15, read: 30, uatOnly: 0, multiple: 1 },
  'Repository permissions: Administration': { admin: 0, write: 81, read: 36, uatOnly: 5, multiple: 6 },
  'Repository permissions: Contents': { admin: 0, write: 29, read: 0, uatOnly: 5, multiple: 5 },
};

const R = '/repos/{owner}/{repo}';
const find = (method: string, path: string) => PERMISSION_MATRIX.filter((r) => r.method === method && r.path === path);

describe('the permission matrix', () => {
  it('has the spec\'s categories, in its order, with the hand-counted rows per access level and mark', () => {
    expect(MATRIX_CATEGORIES).toEqual(Object.keys(HAND_COUNT));
    const counted = Object.fromEntries(MATRIX_CATEGORIES.map((c) => {
      const rows = PERMISSION_MATRIX.filter((r) => r.category === c);
      const n = (pred: (r: MatrixRow) => boolean) => rows.filter(pred).length;
      return [c, {
        admin: n((r) => r.access === 'admin'), write: n((r) => r.access === 'write'), read: n((r) => r.access === 'read'),
        uatOnly: n((r) => r.uatOnly), multiple: n((r) => r.multiplePermissions),
      }];
    }));
    expect(counted).toEqual(HAND_COUNT);
  });

  it('holds each method, path, permission and level once', () => {
    const keys = PERMISSION_MATRIX.map((r) => `${r.method} ${r.path} ${r.permission}=${r.access}`);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });

  it('writes every path in full with {param} placeholders', () => {
    const bad = PERMISSION_MATRIX.filter((r) => !/^(\/([a-z0-9_-]+|\{[a-z_]+\}))+$/.test(r.path)).map((r) => r.path);
    expect(bad).toEqual([]);
  });

  it('keeps rows the spec lists twice once, flagged and [+]', () => {
    const twice = PERMISSION_MATRIX.filter((r) => r.listedTwice).map((r) => `${r.method} ${r.path}`);
    expect(twice).toEqual([`PUT ${R}/contents/{path}`, `DELETE ${R}/contents/{path}`, `POST ${R}/git/refs`, `PATCH ${R}/git/refs/{ref}`, `POST ${R}/releases`]);
    expect(PERMISSION_MATRIX.filter((r) => r.listedTwice && !r.multiplePermissions)).toEqual([]);
  });

  it('expands the spec\'s shorthands as written', () => {
    const one = (method: string, path: string) => {
      const rows = find(method, path);
      expect(rows, `${method} ${path}`).toHaveLength(1);
      return rows[0]!;
    };
    // "POST R/actions/runs/{run_id}/pending_deployments (read level, [+])"
    expect(one('POST', `${R}/actions/runs/{run_id}/pending_deployments`)).toMatchObject({ permission: 'actions', access: 'read', multiplePermissions: true });
    // "and under R/actions/runs/{run_id}: … attempts/{attempt_number}/logs"
    expect(one('GET', `${R}/actions/runs/{run_id}/attempts/{attempt_number}/logs`).access).toBe('read');
    // "POST .../force-cancel … (each under R/actions/runs/{run_id})"
    expect(one('POST', `${R}/actions/runs/{run_id}/force-cancel`).access).toBe('write');
    // "GET R/pages/health [+]" among the write rows of repository Administration
    expect(one('GET', `${R}/pages/health`)).toMatchObject({ access: 'write', multiplePermissions: true });
    // "POST, PUT and DELETE B/restrictions/apps, B/restrictions/teams, B/restrictions/users"
    expect(find('PUT', `${R}/branches/{branch}/protection/restrictions/teams`)).toHaveLength(1);
    // "PUT and DELETE .../deployment-branch-policies/{branch_policy_id}"
    expect(one('DELETE', `${R}/environments/{environment_name}/deployment-branch-policies/{branch_policy_id}`).permission).toBe('administration');
    // "PATCH /user/memberships/orgs/{org} [U]"
    expect(one('PATCH', '/user/memberships/orgs/{org}')).toMatchObject({ uatOnly: true, access: 'write' });
    // "POST O/projects (not [+])", while the other Projects rows are [+]
    expect(one('POST', '/orgs/{org}/projects').multiplePermissions).toBe(false);
    expect(one('DELETE', '/projects/{project_id}').multiplePermissions).toBe(true);
    // The same endpoint in two categories is two rows: Administration and Assistant Business.
    expect(find('POST', '/orgs/{org}/assistant/billing/selected_teams').map((r) => r.category)).toEqual([
      'Organization permissions: Administration', 'Organization permissions: Assistant Business',
    ]);
  });
});

describe('the catalogue and the matrix', () => {
  it('agree on the import writes: Contents write, UAT only', () => {
    // "PUT, PATCH and DELETE R/import [U]; PATCH R/import/authors/{author_id} [U]; PATCH R/import/lfs [U]"
    const expected = [`PUT ${R}/import`, `PATCH ${R}/import`, `DELETE ${R}/import`, `PATCH ${R}/import/authors/{author_id}`, `PATCH ${R}/import/lfs`];
    const matrix = PERMISSION_MATRIX.filter((r) => r.path.startsWith(`${R}/import`));
    expect(matrix.map((r) => `${r.method} ${r.path}`)).toEqual(expected);
    expect(matrix.every((r) => r.permission === 'contents' && r.access === 'write' && r.uatOnly)).toBe(true);
    const writes = CATALOGUE.filter((e) => e.area === 'imports' && e.writes);
    expect(writes.map((e) => `${e.method} ${e.path}`).sort()).toEqual([...expected].sort());
    for (const e of writes) expect(e.permission, e.id).toEqual({ name: 'contents', access: 'write', userToServerOnly: true });
  });

  it('take the permissions the Authentication prose states where the matrix is silent', () => {
    // "fine-grained tokens need repository permission Contents, read for GET endpoints"
    for (const e of CATALOGUE.filter((x) => x.area === 'imports' && x.method === 'GET')) expect(e.permission, e.id).toEqual({ name: 'contents', access: 'read' });
    // "App tokens need permission security_events, read for GET, write for PATCH."
    for (const e of CATALOGUE.filter((x) => x.area === 'code-scanning')) {
      expect(e.permission, e.id).toEqual({ name: 'security_events', access: e.method === 'GET' ? 'read' : 'write' });
    }
  });

  it('never disagree where both name an endpoint', () => {
    const clashes = CATALOGUE.filter((e) => e.permission).flatMap((e) => find(e.method, e.path)
      .filter((r) => r.permission !== e.permission!.name || r.access !== e.permission!.access || r.uatOnly !== !!e.permission!.userToServerOnly)
      .map((r) => `${e.id}: ${r.permission}=${r.access}`));
    expect(clashes).toEqual([]);
  });
});

describe('docs/permissions.md', () => {
  it('is what npm run docs:permissions generates from the data', () => {
    expect(readFileSync(PERMISSIONS_DOC, 'utf8')).toBe(renderPermissionsDoc());
  });

  it('has one table row per matrix row', () => {
    const rows = readFileSync(PERMISSIONS_DOC, 'utf8').split('\n').filter((l) => /^\| (Organization|Repository) permissions: .* \| (admin|write|read) \|/.test(l));
    expect(rows).toHaveLength(PERMISSION_MATRIX.length);
  });
});

describe('judging X-Accepted-Service-Permissions', () => {
  const lfs = CATALOGUE.find((e) => e.id === 'imports.lfs')!;
  const judge = (header: string | undefined) => {
    const t = new CheckContext(permissionsSuite.checks({} as Profile)[0]!, {} as Client, { base_url: 'http://127.0.0.1:1' }, vendorNames('service'), {} as Journal);
    const reply: Reply = { status: 403, headers: header === undefined ? {} : { 'x-accepted-service-permissions': header }, text: '', json: undefined, exchange: 0 };
    judgeHeader(t, lfs, reply);
    return { failures: t.failures.length, notes: t.notes.length };
  };

  it('accepts the permission among others, whatever its case: the spec writes "Contents" in prose', () => {
    expect(judge('contents=write')).toEqual({ failures: 0, notes: 0 });
    expect(judge('metadata=read; Contents=write')).toEqual({ failures: 0, notes: 0 });
    expect(judge('CONTENTS=WRITE')).toEqual({ failures: 0, notes: 0 });
  });

  it('fails a missing header, another permission or another level; a bare name is information', () => {
    expect(judge(undefined).failures).toBe(1);
    expect(judge('metadata=read').failures).toBe(1);
    expect(judge('contents=read').failures).toBe(1);
    expect(judge('contents')).toEqual({ failures: 0, notes: 1 });
  });
});
