/**
 * Document 2's permissions at the reference: security_events for code scanning, contents for
 * imports, [U] import writes refused to installation tokens, and X-Accepted-Service-Permissions
 * naming each; then each permission fault breaking its rule.
 */
import { describe, expect, it } from 'vitest';
import { call, TOKENS, useReference } from '../helpers/reference.js';
import { describeFaultProbes, type Probe } from '../helpers/faults.js';

const ALERTS = '/repos/acme/widgets/code-scanning/alerts';
const IMPORT = '/repos/acme/import-target/import';
const HEADER = 'x-accepted-service-permissions';
const SOURCE = 'https://svn.example.invalid/projects/widgets';

const firstOpen = async (base: string) => (await call(base, `${ALERTS}?state=open&per_page=1`)).body[0].number as number;
const patchAlert = (base: string, n: number, token: string, body: object = { state: 'open' }) =>
  call(base, `${ALERTS}/${n}`, { method: 'PATCH', body, token });
/** A fresh import started with the classic token. */
async function freshImport(base: string): Promise<void> {
  await call(base, IMPORT, { method: 'DELETE' });
  expect((await call(base, IMPORT, { method: 'PUT', body: { vcs: 'subversion', vcs_url: SOURCE } })).status).toBe(201);
}
const refused = (status: number) => status === 403 || status === 404;

describe('code scanning: "App tokens need permission security_events, read for GET, write for PATCH."', () => {
  const ref = useReference();

  it('refuses a token without security_events and admits one holding read to the reads', async () => {
    const r = await ref.get(ALERTS, { token: TOKENS.fineGrainedBare });
    expect(r.status).toBe(403);
    expect(r.headers[HEADER]).toBe('security_events=read');
    expect((await ref.get(ALERTS, { token: TOKENS.fineGrained })).status).toBe(200);
    expect((await ref.get('/orgs/acme/code-scanning/alerts', { token: TOKENS.fineGrained })).status).toBe(200);
  });

  it('refuses read to the update and admits write, from user and installation tokens alike', async () => {
    const n = await firstOpen(ref.url);
    const low = await patchAlert(ref.url, n, TOKENS.fineGrained);
    expect(low.status).toBe(403);
    expect(low.headers[HEADER]).toBe('security_events=write');
    expect((await patchAlert(ref.url, n, TOKENS.appUser)).status).toBe(200);
    expect((await patchAlert(ref.url, n, TOKENS.appInstallation)).status).toBe(200);
  });
});

describe('imports: Contents, read for GET and write for the others; the writes are [U]', () => {
  const ref = useReference();

  it('refuses tokens without contents, and contents=read on writes', async () => {
    await freshImport(ref.url);
    const bare = await ref.get(IMPORT, { token: TOKENS.fineGrainedBare });
    expect(bare.status).toBe(403);
    expect(bare.headers[HEADER]).toBe('contents=read');
    expect((await ref.get(IMPORT, { token: TOKENS.fineGrained })).status).toBe(200);
    const low = await call(ref.url, `${IMPORT}/lfs`, { method: 'PATCH', body: { use_lfs: 'opt_in' }, token: TOKENS.fineGrained });
    expect(low.status).toBe(403);
    expect(low.headers[HEADER]).toBe('contents=write');
  });

  it('refuses an installation token holding contents=write on every [U] row, and admits a user token', async () => {
    await freshImport(ref.url);
    const authors = (await ref.get(`${IMPORT}/authors`)).body as { id: number }[];
    const rows: [string, string, object?][] = [
      ['PATCH', IMPORT, {}], ['PATCH', `${IMPORT}/authors/${authors[0]!.id}`, {}], ['PATCH', `${IMPORT}/lfs`, { use_lfs: 'opt_in' }], ['DELETE', IMPORT],
    ];
    for (const [method, path, body] of rows) {
      expect((await call(ref.url, path, { method, token: TOKENS.appInstallation, ...(body ? { body } : {}) })).status, `${method} ${path}`).toBe(403);
    }
    // The installation may still read: GET rows are not [U].
    expect((await ref.get(IMPORT, { token: TOKENS.appInstallation })).status).toBe(200);
    for (const [method, path, body] of rows) {
      expect((await call(ref.url, path, { method, token: TOKENS.appUser, ...(body ? { body } : {}) })).status, `${method} ${path}`).toBeLessThan(300);
    }
    expect((await call(ref.url, IMPORT, { method: 'PUT', body: { vcs_url: SOURCE }, token: TOKENS.appInstallation })).status).toBe(403);
    expect((await call(ref.url, IMPORT, { method: 'PUT', body: { vcs_url: SOURCE }, token: TOKENS.appUser })).status).toBe(201);
  });
});

const PROBES: Record<string, Probe> = {
  'permissions-security-events-ignored': async (b) => refused((await call(b, ALERTS, { token: TOKENS.fineGrainedBare })).status),
  'permissions-read-admits-write': async (b) => refused((await patchAlert(b, await firstOpen(b), TOKENS.fineGrained)).status),
  'permissions-contents-ignored': async (b) => {
    await freshImport(b);
    return refused((await call(b, IMPORT, { token: TOKENS.fineGrainedBare })).status);
  },
  'permissions-imports-reads-refuse-classic': async (b) => {
    await freshImport(b);
    return (await call(b, `${IMPORT}/authors`)).status === 200;
  },
  'permissions-uat-only-ignored': async (b) => {
    await freshImport(b);
    return refused((await call(b, IMPORT, { method: 'DELETE', token: TOKENS.appInstallation })).status);
  },
  'permissions-header-wrong': async (b) =>
    (await patchAlert(b, await firstOpen(b), TOKENS.fineGrainedBare)).headers[HEADER] === 'security_events=write',
};

describeFaultProbes('permission faults', PROBES);
