/** The CI gate through the real CLI: a baseline run, then a run with an added fault, gated on regressions only. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../../core/paths.js';
import { runCli } from '../helpers/cli.js';

const BIN = packagePath('bin', 'conformance.js');
const dir = mkdtempSync(join(tmpdir(), 'gate-'));

/** A reference with these faults, and the profile to reach it. */
function serve(faults: string[], profile: string): Promise<ChildProcess> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'reference', '--port', '0', '--write-profile', profile, ...(faults.length ? ['--faults', faults.join(',')] : [])]);
    child.stdout.on('data', (d: Buffer) => { if (/listening on/.test(d.toString())) resolve(child); });
  });
}

describe('baselines and expectations', () => {
  it('--fail-on new fails only on the regression and names only it; expectations and the step summary work', async () => {
    const profile = join(dir, 'target.json');
    // --max-wait: the check of events that waits out the reference's 60 s poll interval is skipped instead.
    const common = ['--profile', profile, '--suite', 'search', '--suite', 'events', '--max-wait', '5', '--quiet'];
    const first = await serve(['events-network-no-redirect'], profile);
    const base = await runCli([...common, '--report-dir', join(dir, 'base')]);
    expect(base.status).toBe(1);
    // --only-failed reruns exactly the failures of that report.
    const rerun = await runCli(['--profile', profile, '--quiet', '--report-dir', join(dir, 'rerun'), '--only-failed', join(dir, 'base', 'report.json')]);
    first.kill();
    expect(rerun.status).toBe(1);
    const rerunReport = JSON.parse(readFileSync(join(dir, 'rerun', 'report.json'), 'utf8'));
    expect(rerunReport.checks.map((c: { id: string }) => c.id)).toEqual(['events.network-301']);

    const second = await serve(['events-network-no-redirect', 'search-issues-operators-unlimited'], profile);
    const summary = join(dir, 'step-summary.md');
    writeFileSync(summary, '');
    const gated = await runCli([...common, '--report-dir', join(dir, 'new'), '--baseline', join(dir, 'base', 'report.json'), '--fail-on', 'new'], { GITHUB_STEP_SUMMARY: summary });
    second.kill();
    expect(gated.status).toBe(1);
    expect(gated.stdout).toContain('newly failing: search.max-operators');
    expect(gated.stdout).not.toMatch(/newly failing:.*events\.network-301/);
    expect(readFileSync(summary, 'utf8')).toContain('search.max-operators');

    const expectations = join(dir, 'expectations.json');
    writeFileSync(expectations, JSON.stringify({ 'expected-failures': {
      'search.max-operators': 'operator limit not enforced yet', 'events.network-301': 'renames not tracked', 'search.q-length-256': 'fixed last week',
    } }));
    // A fresh reference: the search limit of the previous one is spent for this minute.
    const third = await serve(['events-network-no-redirect', 'search-issues-operators-unlimited'], profile);
    const known = await runCli([...common, '--report-dir', join(dir, 'exp'), '--expectations', expectations]);
    third.kill();
    expect(known.status).toBe(0);
    expect(known.stdout).toContain('expected to fail but passed (update the expectations file): search.q-length-256');
    const report = JSON.parse(readFileSync(join(dir, 'exp', 'report.json'), 'utf8'));
    expect(report.comparison.expectedFailures.sort()).toEqual(['events.network-301', 'search.max-operators']);
  });

  it('without a baseline no failure is called new, in the comparison or in summary.md', async () => {
    const out = join(dir, 'no-baseline');
    const expectations = join(dir, 'one-expected.json');
    writeFileSync(expectations, JSON.stringify({ 'expected-failures': { 'no.such-check': 'gone' } }));
    const server = await serve(['search-issues-operators-unlimited'], join(dir, 'nb.json'));
    const r = await runCli(['--profile', join(dir, 'nb.json'), '--grep', 'search.max-operators', '--quiet', '--report-dir', out, '--expectations', expectations]);
    server.kill();
    expect(r.status).toBe(1);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report.counts.fail).toBeGreaterThan(0);
    expect(report.comparison.newlyFailing).toEqual([]);
    expect(r.stdout).not.toMatch(/newly failing/i);
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).not.toMatch(/newly failing/i);
  });

  it('--fail-on new without --baseline, or a malformed expectations file, is a usage error', async () => {
    expect((await runCli(['--fail-on', 'new', '--list'])).status).toBe(2);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"expected-failures": {"x": 1}}');
    const r = await runCli(['--expectations', bad, '--list']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/expected-failures/);
  });
});
