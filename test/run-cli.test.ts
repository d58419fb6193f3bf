/** `npx conformance` as a user runs it: exit codes, one-line errors, reports on disk. */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packagePath } from '../core/paths.js';
import { lastLine, runCli } from './helpers/cli.js';

const BIN = packagePath('bin', 'conformance.js');

describe('npx conformance against bad targets', () => {
  const servers: Server[] = [];
  let htmlUrl = '';
  let hangingUrl = '';
  beforeAll(async () => {
    const html = createServer((_req, res) => { res.writeHead(200, { 'content-type': 'text/html' }); res.end('<html>hello</html>'); });
    const hanging = createServer(() => { /* never answers */ });
    for (const s of [html, hanging]) {
      servers.push(s);
      await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    }
    htmlUrl = `http://127.0.0.1:${(html.address() as { port: number }).port}`;
    hangingUrl = `http://127.0.0.1:${(hanging.address() as { port: number }).port}`;
  });
  afterAll(() => {
    for (const s of servers) {
      s.closeAllConnections();
      s.close();
    }
  });
  const dir = mkdtempSync(join(tmpdir(), 'run-'));

  it('an unreachable URL: one line naming it, exit 3', async () => {
    const r = await runCli(['--base-url', 'http://127.0.0.1:9', '--report-dir', join(dir, 'a'), '--quiet']);
    expect(r.status).toBe(3);
    expect(lastLine(r.stderr)).toMatch(/^conformance: .*connection refused/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('a server that does not speak JSON: exit 3', async () => {
    const r = await runCli(['--base-url', htmlUrl, '--report-dir', join(dir, 'b'), '--quiet']);
    expect(r.status).toBe(3);
    expect(lastLine(r.stderr)).toMatch(/not JSON/);
  });

  it('a hanging server: the timeout names it, exit 3', async () => {
    const r = await runCli(['--base-url', hangingUrl, '--timeout', '1', '--report-dir', join(dir, 'c'), '--quiet']);
    expect(r.status).toBe(3);
    expect(lastLine(r.stderr)).toMatch(/no answer within 1000 ms/);
  });

  it('a malformed profile or a wrong flag: exit 2', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"base_url": 3}');
    const p = await runCli(['--profile', bad]);
    expect(p.status).toBe(2);
    expect(lastLine(p.stderr)).toMatch(/^conformance: profile .*base_url/);
    const f = await runCli(['--max-requests', 'lots']);
    expect(f.status).toBe(2);
    const s = await runCli(['--suite', 'nope', '--list']);
    expect(s.status).toBe(2);
    expect(lastLine(s.stderr)).toMatch(/unknown suite nope/);
  });

  it('--list prints checks without a target', async () => {
    const r = await runCli(['--list']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/schema\.search\.issues \[MUST\]/);
    expect(r.stdout).toContain('"more than five AND, OR or NOT operators');
  });

  it('against an external reference: exit 0 when correct, exit 1 naming the spec sentence and the request when a rule is broken', async () => {
    const profileFile = join(dir, 'target.json');
    const serve = (faults: string) => new Promise<{ stop: () => void }>((resolve) => {
      const child = spawn(process.execPath, [BIN, 'reference', '--port', '0', '--write-profile', profileFile, ...(faults ? ['--faults', faults] : [])]);
      child.stdout.on('data', (d: Buffer) => { if (/listening on/.test(d.toString())) resolve({ stop: () => child.kill() }); });
    });
    const clean = await serve('');
    const ok = await runCli(['--profile', profileFile, '--suite', 'search', '--report-dir', join(dir, 'ok'), '--quiet']);
    clean.stop();
    expect(ok.status).toBe(0);
    const broken = await serve('search-issues-operators-unlimited');
    const bad = await runCli(['--profile', profileFile, '--suite', 'search', '--report-dir', join(dir, 'bad'), '--quiet']);
    broken.stop();
    expect(bad.status).toBe(1);
    expect(bad.stdout).toMatch(/FAIL search\.max-operators/);
    expect(bad.stdout).toContain('more than five AND, OR or NOT operators');
    expect(bad.stdout).toMatch(/request: GET http:\/\/127\.0\.0\.1:\d+\/search\/issues\?q=/);
    const summary = readFileSync(join(dir, 'bad', 'summary.md'), 'utf8');
    expect(summary).toContain('search.max-operators');
  });

  it('a spent request budget: exit 4 and reports still written', async () => {
    const out = join(dir, 'budget');
    const r = await runCli(['--max-requests', '5', '--report-dir', out, '--quiet']);
    expect(r.status).toBe(4);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report.stopped.reason).toBe('budget-exhausted');
    expect(report.requests.total).toBeLessThanOrEqual(5);
    expect(existsSync(join(out, 'summary.md'))).toBe(true);
  });
});
