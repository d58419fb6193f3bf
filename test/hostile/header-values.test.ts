/**
 * A profile value bound for an HTTP header (a token) holding a line break is the profile's fault:
 * exit 2 with one line naming where it is, never its value, and no request sent.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../core/exit-codes.js';
import { listen } from '../../core/listen.js';
import { runCli } from '../helpers/cli.js';

const SECRET = 'ghp_looksfine\r\nX-Injected: yes';

let target: { origin: string; requests: number; close: () => Promise<void> };
beforeAll(async () => {
  const server = createServer((_, res) => {
    target.requests++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  const { origin } = await listen(server, 0);
  target = { origin, requests: 0, close: () => new Promise((resolve) => server.close(() => resolve())) };
});
afterAll(() => target.close());

function profileFile(profile: object): string {
  const path = join(mkdtempSync(join(tmpdir(), 'profile-')), 'profile.json');
  writeFileSync(path, JSON.stringify({ base_url: target.origin, ...profile }));
  return path;
}

describe('a header-bound profile value with a line break', () => {
  it.each([
    ['a token written in the profile', { tokens: { classic: { value: SECRET } } }, {}, 'tokens.classic.value'],
    ['a token read from the environment', { tokens: { org_member: { value: 'env:HOSTILE_TOKEN' } } }, { HOSTILE_TOKEN: SECRET }, 'tokens.org_member.value'],
    ['the lockout user\'s token', { lockout_user: { login: 'mallory', token: SECRET } }, {}, 'lockout_user.token'],
  ])('%s: exit 2, one line naming it and not its value, nothing sent', async (_, profile, env, where) => {
    const r = await runCli(['--profile', profileFile(profile), '--report-dir', mkdtempSync(join(tmpdir(), 'report-'))], env);
    expect(r.status).toBe(EXIT.usage);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringContaining(`${where} holds a character not allowed in an HTTP header value`)]);
    expect(r.stderr).not.toContain('looksfine');
    expect(target.requests).toBe(0);
  });
});
