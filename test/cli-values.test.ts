/**
 * What the command line does with the values it is given: a wrong one is refused as parsed (exit 2,
 * one line naming the flag and what was typed); lists take commas; --suite names id prefixes; the
 * places a run writes to are proved before its first request.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOption } from '../src/commands/values.js';
import type { RunResult } from '../core/model.js';
import { runCli } from './helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'cli-values-'));

describe('a wrong flag value', () => {
  const cases: [string[], string][] = [
    [['--max-requests', 'lots'], '--max-requests must be a positive integer, got "lots"'],
    [['--max-requests', '0'], '--max-requests must be a positive integer, got "0"'],
    [['--timeout', 'abc'], '--timeout must be a positive number of seconds, got "abc"'],
    [['--total-timeout', '0'], '--total-timeout must be a positive number of seconds, got "0"'],
    [['--max-body', '-3'], '--max-body must be a positive number of megabytes, got "-3"'],
    [['--max-wait', 'soon'], '--max-wait must be a number of seconds, 0 or more, got "soon"'],
    [['--max-total-wait', '-1'], '--max-total-wait must be a number of seconds, 0 or more, got "-1"'],
    [['--vendor', 'Git Hub'], '--vendor must be a lowercase word such as service or github, got "Git Hub"'],
    [['--prefix', 'api/v3?x=1'], '--prefix must be a path such as /api/v3, got "api/v3?x=1"'],
    [['--base-url', 'ftp://host'], '--base-url must be an http(s) URL, got "ftp://host"'],
    [['--fail-on', 'some'], '--fail-on must be any or new, got "some"'],
    [['--shard', '0/3'], '--shard must be i/n with 1 <= i <= n <= 256, such as 2/3, got "0/3"'],
    [['--shard', '4/3'], '--shard must be i/n with 1 <= i <= n <= 256, such as 2/3, got "4/3"'],
    [['--shard', 'a/b'], '--shard must be i/n with 1 <= i <= n <= 256, such as 2/3, got "a/b"'],
    [['--shard', '1/257'], '--shard must be i/n with 1 <= i <= n <= 256, such as 2/3, got "1/257"'],
    [['proxy', '--port', 'abc'], '--port must be an integer from 0 to 65535, got "abc"'],
    [['proxy', '--upstream-timeout', '0'], '--upstream-timeout must be a positive number of milliseconds, got "0"'],
    [['proxy', '--upstream-total-timeout', 'x'], '--upstream-total-timeout must be a positive number of milliseconds, got "x"'],
    [['proxy', '--max-body', 'lots'], '--max-body must be a positive number of megabytes, got "lots"'],
    [['proxy', '--core-limit', '1.5'], '--core-limit must be a positive integer, got "1.5"'],
    [['proxy', '--search-limit', '0'], '--search-limit must be a positive integer or "off", got "0"'],
    [['proxy', '--cache-mb', '-1'], '--cache-mb must be a number of megabytes, 0 or more, got "-1"'],
    [['proxy', '--fault-rate', '1.5'], '--fault-rate must be a number from 0 to 1, got "1.5"'],
    [['proxy', '--fault-status', '99'], '--fault-status must be an HTTP status from 100 to 599, got "99"'],
    [['proxy', '--fault-status', '600'], '--fault-status must be an HTTP status from 100 to 599, got "600"'],
    [['proxy', '--fault-seed', 'x'], '--fault-seed must be an integer, 0 or more, got "x"'],
    [['proxy', '--latency', 'soon'], '--latency must be milliseconds or "recorded", got "soon"'],
    [['proxy', '--prefix', '/a/../b'], '--prefix must be a path such as /api/v3, got "/a/../b"'],
    [['proxy', '--target', 'not a url'], '--target must be an http(s) URL, got "not a url"'],
    [['proxy', 'import-har', '--har', 'x.har', '--fixtures', 'out', '--upstream', 'api.example.com'], '--upstream must be an http(s) URL, got "api.example.com"'],
    [['undo', 'journal.jsonl', '--profile', 'reference', '--base-url', 'nope'], '--base-url must be an http(s) URL, got "nope"'],
    [['reference', '--poll-interval', '0'], '--poll-interval must be a positive integer, got "0"'],
  ];
  it.concurrent.each(cases)('%j: exit 2, one line naming the flag and the value', async (args, message) => {
    // A run given a wrong value must not start, but if it did, its reports stay out of the way.
    const r = await runCli(['proxy', 'undo', 'reference'].includes(args[0]!) ? args : [...args, '--report-dir', join(dir, 'never')], {}, 30_000);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`conformance: ${message}\n`);
  });
});

describe('lists', () => {
  it('a comma list is the flag repeated, blanks dropped', () => {
    expect(listOption('x').coerce(['a,b', ' c ', 'd,,'])).toEqual(['a', 'b', 'c', 'd']);
  });

  it('--suite names the part of the check ids before the first dot, listed and reported as such', async () => {
    const listed = (out: string) => out.split('\n').filter((l) => /^\S+ \[/.test(l)).map((l) => {
      const [, id, suite] = /^(\S+) \[[A-Z ]+\] \[([^\]]+)\]/.exec(l)!;
      return { id: id!, suite: suite! };
    });
    const commas = await runCli(['--list', '--suite', 'alerts,search']);
    const repeated = await runCli(['--list', '--suite', 'alerts', '--suite', 'search']);
    expect(commas.status).toBe(0);
    expect(repeated.stdout).toBe(commas.stdout);
    const checks = listed(commas.stdout);
    expect(new Set(checks.map((c) => c.suite))).toEqual(new Set(['alerts', 'search']));
    for (const c of checks) expect(c.id.startsWith(`${c.suite}.`), c.id).toBe(true);
    // Every check of those prefixes, wherever its scenario module sits in the run order.
    const all = listed((await runCli(['--list'])).stdout);
    expect(checks.map((c) => c.id).sort()).toEqual(all.filter((c) => /^(alerts|search)\./.test(c.id)).map((c) => c.id).sort());
    for (const c of all) expect(c.id.startsWith(`${c.suite}.`), c.id).toBe(true);

    const reports = join(dir, 'alerts-search');
    const run = await runCli(['--suite', 'alerts,search', '--quiet', '--report-dir', reports], {}, 120_000);
    expect(run.status).toBe(0);
    const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as RunResult;
    expect(report.checks.map((c) => c.id).sort()).toEqual(checks.map((c) => c.id).sort());
    for (const c of report.checks) expect(c.suite).toBe(c.id.split('.')[0]);
    expect(run.stdout).toMatch(/^alerts\s/m);
    expect(run.stdout).toMatch(/^search\s/m);
  }, 150_000);

  it('a suite no check id begins with is refused, naming the ones there are', async () => {
    const r = await runCli(['--list', '--suite', 'code-scanning']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^conformance: unknown suite code-scanning \(suites: .*\balerts\b.*\)\n$/);
  });
});

describe('a profile without base_url', () => {
  it('is complete with --base-url, and refused without it, saying so', async () => {
    const profile = join(dir, 'no-base-url.json');
    writeFileSync(profile, JSON.stringify({ tokens: { classic: { value: 'ghp_x' } } }));
    const given = await runCli(['--profile', profile, '--base-url', 'http://127.0.0.1:9', '--list']);
    expect(given.status).toBe(0);
    expect(given.stdout).toMatch(/^\d+ checks$/m);
    const missing = await runCli(['--profile', profile, '--list']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe(`conformance: profile ${profile}: base_url is missing (or pass --base-url)\n`);
  });
});

describe('where the run writes, proved before the first request', () => {
  let server: Server;
  let url = '';
  let requests = 0;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      requests += 1;
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => server.close());

  const file = join(dir, 'a-file');
  writeFileSync(file, 'not a directory');
  it.each([
    ['/proc/conformance-reports', 'under /proc, which holds no real files'],
    [file, 'it is a file, not a directory'],
    [join(file, 'reports'), 'a part of the path is a file'],
  ])('--report-dir %s: exit 2 at once, one line naming it and why, no request sent', async (reportDir, why) => {
    const before = requests;
    const started = Date.now();
    const r = await runCli(['--base-url', url, '--report-dir', reportDir], {}, 20_000);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`conformance: --report-dir ${reportDir}: ${why}\n`);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(requests - before).toBe(0);
  });

  it('a GITHUB_STEP_SUMMARY that cannot be written is a warning; the run and its exit code go on', async () => {
    const args = ['--grep', 'versioning.listed-versions', '--quiet'];
    const plain = await runCli([...args, '--report-dir', join(dir, 'plain')], {}, 60_000);
    const summaryDir = join(dir, 'summary-is-a-directory');
    mkdirSync(summaryDir);
    const warned = await runCli([...args, '--report-dir', join(dir, 'warned')], { GITHUB_STEP_SUMMARY: summaryDir }, 60_000);
    expect(plain.status).toBe(0);
    expect(warned.status).toBe(plain.status);
    expect(warned.stderr).toBe(`conformance: warning: GITHUB_STEP_SUMMARY ${summaryDir}: cannot write (it is a directory); the job summary is left out\n`);
    expect(warned.stdout).toMatch(/^reports: /m);
  }, 120_000);
});
