/** The command line as a user meets it: the compiled bin, real processes, exit codes and one-line errors. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseProfile } from '../core/profile.js';
import { packagePath } from '../core/paths.js';
import { call } from './helpers/reference.js';
import { serve, stop } from './helpers/serve.js';

const BIN = packagePath('bin', 'conformance.js');
const run = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 20_000 });

describe('conformance CLI', () => {
  const blockers: Server[] = [];
  afterAll(() => blockers.forEach((s) => s.close()));

  it('--help works and lists the commands', () => {
    const r = run('--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('reference');
  });

  it('a mistyped flag or command is one line naming the nearest known one, exit 2', () => {
    const cases: [string[], string][] = [
      [['--base-ur', 'http://x'], 'unknown argument base-ur (did you mean --base-url?)'],
      [['proxi'], 'unknown argument proxi (did you mean proxy?)'],
      [['proxy', '--recrd'], 'unknown argument recrd (did you mean --record?)'],
      [['--frobnicate'], 'unknown argument frobnicate; see --help'],
    ];
    for (const [args, message] of cases) {
      const r = run(...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr).toContain(message);
    }
  });

  it('a wrong flag value is one line naming the flag and what was typed, exit 2', () => {
    const cases: [string[], string][] = [
      [['reference', '--port', 'abc'], '--port must be an integer from 0 to 65535, got "abc"'],
      [['reference', '--port', '1.5'], '--port must be an integer from 0 to 65535, got "1.5"'],
      [['reference', '--prefix', 'api/v3?x=1'], '--prefix must be a path such as /api/v3, got "api/v3?x=1"'],
      [['reference', '--vendor', 'Git Hub'], '--vendor must be a lowercase word such as service or github, got "Git Hub"'],
    ];
    for (const [args, message] of cases) {
      const r = run(...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr.trim(), args.join(' ')).toBe(`conformance: ${message}`);
    }
  });

  it('reference --port 0 prints its URL, serves, and stops cleanly on SIGTERM', async () => {
    const server = await serve(['reference', '--port', '0', '--prefix', '/api/v3']);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v3$/);
    expect((await call(server.url, '/rate_limit')).status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('writes the reference profile with --write-profile', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cli-')), 'target.json');
    const server = await serve(['reference', '--port', '0', '--write-profile', file]);
    const profile = parseProfile(JSON.parse(readFileSync(file, 'utf8')), file);
    expect(server.url.startsWith(profile.base_url)).toBe(true);
    await stop(server.child);
  });

  it('gives a one-line error and exit code 2 for a bad flag, an unknown fault, a bad port', () => {
    for (const args of [['reference', '--bogus'], ['reference', '--port', '0', '--faults', 'no-such-fault'], ['reference', '--port', '70000'], ['nonsense']]) {
      const r = run(...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr).toMatch(/^conformance: /);
    }
  });

  it('gives a one-line error and exit code 2 when the port is in use', async () => {
    const blocker = createServer();
    blockers.push(blocker);
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    const r = run('reference', '--port', String(port));
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe(`conformance: port ${port} on 127.0.0.1 is already in use`);
  });

  it('validate grades a saved document: exit 0 when valid, 1 with a failure, 2 for a bad resource name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'validate-'));
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify([{ ref_name: 'refs/heads/main', path: 'big.bin', oid: 'abc', size: 104857601 }]));
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ ref_name: 'refs/heads/main', path: 'big.bin', oid: 'abc', size: '100MB' }));
    expect(run('validate', 'large-file', good).status).toBe(0);
    const r = run('validate', 'large-file', bad);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('FAIL /size: expected integer, got string "100MB"');
    expect(run('validate', 'no-such-resource', good).status).toBe(2);
  });

  it('stops quietly when its reader closes early (conformance --list | head)', () => {
    const r = spawnSync('sh', ['-c', `"${process.execPath}" "${BIN}" --list | head -1`], { encoding: 'utf8' });
    expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(1);
    expect(r.stderr).toBe('');
  });

  it('lists the named faults', () => {
    const r = run('faults', '--json');
    expect(r.status).toBe(0);
    const faults = JSON.parse(r.stdout) as { id: string; requirement: string }[];
    expect(faults.length).toBeGreaterThan(10);
  });
});
