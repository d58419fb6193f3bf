import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceProfile } from '../reference/profile.js';
import { startReference, type RunningReference } from '../reference/server.js';
import { UserError } from '../core/exit-codes.js';
import { loadProfile, parseProfile, profileSecrets } from '../core/profile.js';
import { readPackageJson } from '../core/paths.js';
import { TOKEN_KINDS } from '../spec/tokens.js';
import { call } from './helpers/reference.js';

describe('the profile schema', () => {
  it('admits as a token kind exactly the kinds the spec names (spec/tokens.ts): the JSON schema cannot read them, so they are compared', () => {
    interface ProfileSchema { $defs: { token: { properties: { kind: { enum: string[] } } } } }
    const schema = readPackageJson<ProfileSchema>('schemas/profile.schema.json');
    expect([...schema.$defs.token.properties.kind.enum].sort()).toEqual(Object.keys(TOKEN_KINDS).sort());
  });
});

describe('target profile', () => {
  let ref: RunningReference;
  beforeAll(async () => {
    ref = await startReference({ port: 0, prefix: '/api/v3' });
  });
  afterAll(() => ref.close());

  it("the reference's own profile is valid and its tokens and resources work against it", async () => {
    const profile = parseProfile(referenceProfile(ref), 'reference');
    expect(profile.prefix).toBe('/api/v3');
    const base = `${profile.base_url}${profile.prefix}`;
    for (const [name, token] of Object.entries(profile.tokens ?? {})) {
      const r = await call(base, '/rate_limit', { token: token.value });
      expect(r.status, name).toBe(name === 'invalid' ? 401 : 200);
    }
    const repo = profile.resources!.private_repo!;
    expect((await call(base, `/repos/${repo}/events`, { token: profile.tokens!.classic!.value })).status).toBe(200);
    expect((await call(base, `/repos/${repo}/events`, { token: profile.tokens!.classic_public!.value })).status).toBe(404);
  });

  it('resolves env: references and names a missing variable', () => {
    const data = { base_url: 'http://x.invalid', tokens: { classic: { value: 'env:MY_TOKEN' } }, lockout_user: { login: 'l', token: 'env:LOCK' } };
    const p = parseProfile(data, 't.json', { MY_TOKEN: 'secret-1', LOCK: 'secret-2' });
    expect(p.tokens!.classic!.value).toBe('secret-1');
    expect(profileSecrets(p).sort()).toEqual(['secret-1', 'secret-2']);
    expect(data.tokens.classic.value).toBe('env:MY_TOKEN');
    expect(() => parseProfile(data, 't.json', {})).toThrow(/MY_TOKEN/);
  });

  it('rejects malformed profiles with one line naming the place', () => {
    const dir = mkdtempSync(join(tmpdir(), 'profile-'));
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{ "base_url": ');
    expect(() => loadProfile(bad)).toThrow(/not valid JSON/);
    const unknown = join(dir, 'unknown.json');
    writeFileSync(unknown, JSON.stringify({ base_url: 'http://x.invalid', tokenz: {} }));
    expect(() => loadProfile(unknown)).toThrow(`profile ${unknown}: tokenz is not a profile key (docs/profile.md)`);
    const wrongType = join(dir, 'type.json');
    writeFileSync(wrongType, JSON.stringify({ base_url: 'http://x.invalid', resources: { alert_numbers: ['one'] } }));
    expect(() => loadProfile(wrongType)).toThrow(`profile ${wrongType}: resources.alert_numbers[0] must be an integer`);
    expect(() => loadProfile(join(dir, 'missing.json'))).toThrow(UserError);
  });

  it('words a schema violation plainly: the dotted place, then what it must be', () => {
    const base = { base_url: 'http://x.invalid' };
    const cases: [unknown, string][] = [
      [{ ...base, tokens: { classic: { value: 5 } } }, 'tokens.classic.value must be a string'],
      [{ ...base, tokens: { classic: { value: '' } } }, 'tokens.classic.value must not be empty'],
      [{ ...base, tokens: { classic: {} } }, 'tokens.classic.value is missing'],
      [{ ...base, tokens: { classic: { value: 'v', kind: 'pat' } } }, 'tokens.classic.kind must be one of classic, fine-grained, app-user, app-installation, oauth, workflow'],
      [{ ...base, resources: { public_repo: 'no-slash' } }, 'resources.public_repo must be a repository as owner/name'],
      [{ ...base, resources: { alert_numbers: [0] } }, 'resources.alert_numbers[0] must be 1 or more'],
      [{ base_url: 'ftp://x' }, 'base_url must be an http(s) URL'],
      [{}, 'base_url is missing (or pass --base-url)'],
      [[], 'the top level must be an object'],
    ];
    for (const [data, message] of cases) expect(() => parseProfile(data, 'target.json', {}), message).toThrow(new UserError(`profile target.json: ${message}`));
  });

  it('takes the base URL of --base-url when the profile names none, and keeps its own otherwise', () => {
    expect(parseProfile({ tokens: {} }, 't.json', {}, 'http://given.invalid').base_url).toBe('http://given.invalid');
    expect(parseProfile({ base_url: 'http://own.invalid' }, 't.json', {}, 'http://given.invalid').base_url).toBe('http://own.invalid');
  });
});
