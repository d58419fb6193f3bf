/**
 * The console of a run, as a user reads it: failures and warnings in full, passes and skips only
 * counted per suite (`--verbose` lists every check), `--strict` findings shown, a stopped setup's
 * diagnosis first and once, and the report to open last.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceProfile } from '../reference/profile.js';
import { startReference, type RunningReference } from '../reference/server.js';
import type { RunResult } from '../core/model.js';
import { packagePath } from '../core/paths.js';
import { lastLine, runCli } from './helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'console-cli-'));
const report = (out: string) => JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunResult;
/** Lines naming a check id as a word of their own. */
const naming = (text: string, id: string) => text.split('\n').filter((l) => l.split(/\s+/).includes(id));

describe('the console of a run with one failure', () => {
  let ref: RunningReference;
  let profileFile: string;
  beforeAll(async () => {
    ref = await startReference({ port: 0, faults: ['search-issues-operators-unlimited'], pollIntervalSeconds: 1 });
    profileFile = join(dir, 'profile.json');
    writeFileSync(profileFile, JSON.stringify(referenceProfile(ref)));
  });
  afterAll(() => ref.close());

  it('by default shows the failure in full and only counts the passes; the last line names the HTML report', async () => {
    const out = join(dir, 'compact');
    const r = await runCli(['--profile', profileFile, '--suite', 'search', '--report-dir', out]);
    expect(r.status).toBe(1);
    const { checks } = report(out);
    const failing = checks.filter((c) => c.outcome === 'fail');
    expect(failing.length).toBeGreaterThan(0);
    for (const f of failing) {
      expect(r.stdout).toContain(`FAIL ${f.id} [${f.requirement.level}] ${f.title}`);
      expect(r.stdout).toContain(f.requirement.sentence);
    }
    const passing = checks.filter((c) => c.outcome === 'pass');
    expect(passing.length).toBeGreaterThan(10);
    for (const p of passing) expect(naming(r.stdout + r.stderr, p.id), p.id).toEqual([]);
    expect(r.stdout).toMatch(new RegExp(`^search\\s+${passing.length} passed, ${failing.length} failed`, 'm'));
    expect(lastLine(r.stdout)).toBe(`next: open ${join(out, 'report.html')}`);
  });

});

describe('the console of a --verbose run', () => {
  it('lists every check', async () => {
    // The embedded reference: its own search window, not the one the run above spent.
    const out = join(dir, 'verbose');
    const r = await runCli(['--grep', 'search.max', '--verbose', '--report-dir', out]);
    const { checks } = report(out);
    expect(checks.length).toBeGreaterThan(1);
    for (const c of checks) expect(naming(r.stderr, c.id), c.id).toHaveLength(1);
  });
});

describe('the console of a --strict run', () => {
  it('shows the findings about fields the spec does not describe, which a run without --strict does not', async () => {
    const args = ['--grep', 'schema.search.repositories'];
    const strict = await runCli([...args, '--strict', '--report-dir', join(dir, 'strict')]);
    const withPaths = report(join(dir, 'strict')).checks.flatMap((c) => c.findings.filter((f) => f.path).map((f) => ({ id: c.id, f })));
    expect(withPaths.some(({ f }) => /not described/.test(f.message))).toBe(true);
    for (const { id, f } of withPaths.slice(0, 3)) {
      expect(strict.stdout).toContain(`INFO ${id}`);
      expect(strict.stdout).toContain(`${f.path}: ${f.message}`);
    }
    const plain = await runCli([...args, '--report-dir', join(dir, 'plain')]);
    expect(plain.stdout).not.toMatch(/not described/);
  });
});

describe('the console of a run whose setup checks nothing', () => {
  let ref: RunningReference;
  beforeAll(async () => { ref = await startReference({ port: 0 }); });
  afterAll(() => ref.close());

  it('says the diagnosis once, before anything else', async () => {
    // Both streams into one file, in the order a terminal shows them.
    const log = join(dir, 'nothing.log');
    const fd = openSync(log, 'w');
    const child = spawn(process.execPath, [packagePath('bin', 'conformance.js'), '--base-url', ref.url, '--suite', 'notifications', '--report-dir', join(dir, 'nothing')],
      { stdio: ['ignore', fd, fd] });
    const status = await new Promise((resolve) => child.on('exit', resolve));
    closeSync(fd);
    expect(status).toBe(2);
    const text = readFileSync(log, 'utf8');
    expect(text.split('\n')[0]).toMatch(/^conformance: nothing was checked: /);
    expect(text.split('nothing was checked')).toHaveLength(2);
    expect(text).not.toMatch(/SKIP/);
  });
});
