import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceProfile } from '../reference/profile.js';
import { startReference, type RunningReference } from '../reference/server.js';
import { UserError } from '../src/exit-codes.js';
import { loadProfile, parseProfile, profileSecrets } from '../src/profile.js';
import { call } from './helpers/reference.js';

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
    expect(() => loadProfile(unknown)).toThrow(/unknown key "tokenz"/);
    const wrongType = join(dir, 'type.json');
    writeFileSync(wrongType, JSON.stringify({ base_url: 'http://x.invalid', resources: { alert_numbers: ['one'] } }));
    expect(() => loadProfile(wrongType)).toThrow(/resources\.alert_numbers\.0/);
    expect(() => loadProfile(join(dir, 'missing.json'))).toThrow(UserError);
  });
});
