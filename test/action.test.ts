/**
 * The composite GitHub Action (action.yml) and the README's workflow, as far as they go offline:
 * the files parse; the action's shell steps run as a runner would run them (bash -eo pipefail, its
 * GITHUB_* files, inputs only through the step's env) against a reference, as two shards and then
 * their merge; a wrong input ends in one line in the job summary and the CLI's exit code; the
 * workflow's matrix, artifact names and merge job fit the action.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PACKAGE_ROOT, packagePath } from '../core/paths.js';
import type { RunResult } from '../core/model.js';
import { referenceProfile } from '../reference/profile.js';
import { startReference, type RunningReference } from '../reference/server.js';
import { runCli } from './helpers/cli.js';

interface Step { name?: string; id?: string; uses?: string; if?: string; shell?: string; run?: string; env?: Record<string, string>; with?: Record<string, string> }
interface Action { runs: { using: string; steps: Step[] }; inputs: Record<string, { default?: string }>; outputs: Record<string, { value: string }> }

const action = parse(readFileSync(packagePath('action.yml'), 'utf8')) as Action;
const dir = mkdtempSync(join(tmpdir(), 'action-'));

interface Job {
  exitCode: number;
  outputs: Record<string, string>;
  summary: string;
  /** The `uses` steps that would have run, with their inputs resolved. */
  used: { uses: string; with: Record<string, string> }[];
}

/**
 * Runs the action's steps in `workspace` as a runner would: shell steps in bash, `uses` steps
 * recorded, the install step left out (this checkout is installed and compiled). Expressions other
 * than inputs and the run step's outputs are refused, so a new one must be taught here first.
 */
async function runAction(given: Record<string, string>, workspace: string): Promise<Job> {
  mkdirSync(workspace, { recursive: true });
  const temp = mkdtempSync(join(dir, 'runner-temp-'));
  const files = { GITHUB_OUTPUT: join(temp, 'output'), GITHUB_STEP_SUMMARY: join(temp, 'summary') };
  for (const f of Object.values(files)) writeFileSync(f, '');
  for (const name of Object.keys(given)) expect(action.inputs, `input ${name}`).toHaveProperty(name);
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, given[k] ?? v.default ?? '']));
  const outputs: Record<string, string> = {};
  const resolve = (text: string) => text.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_, expr: string) => {
    const input = /^inputs\.([\w-]+)$/.exec(expr);
    if (input) return inputs[input[1]!]!;
    const output = /^steps\.run\.outputs\.([\w-]+)$/.exec(expr);
    if (output) return outputs[output[1]!] ?? '';
    throw new Error(`action.yml: expression this test does not know: ${expr}`);
  });
  const condition = (expr: string | undefined) => {
    if (expr === undefined) return failed === 0;
    if (expr === 'always()') return true;
    if (expr === "always() && steps.run.outputs.artifact-name != ''") return (outputs['artifact-name'] ?? '') !== '';
    throw new Error(`action.yml: condition this test does not know: ${expr}`);
  };
  let failed = 0;
  const used: Job['used'] = [];
  for (const step of action.runs.steps) {
    if (!condition(step.if)) continue;
    if (step.uses) {
      used.push({ uses: step.uses, with: Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, resolve(String(v))])) });
      continue;
    }
    if (step.run!.includes('npm ci')) continue;
    expect(step.shell).toBe('bash');
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, resolve(String(v))]));
    // GitHub's own bash invocation for `shell: bash`.
    const status = await new Promise<number | null>((done) => {
      spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', resolve(step.run!)], {
        cwd: workspace, stdio: 'ignore', env: { ...process.env, ...env, ...files, RUNNER_TEMP: temp, GITHUB_ACTION_PATH: PACKAGE_ROOT },
      }).on('exit', done);
    });
    for (const line of readFileSync(files.GITHUB_OUTPUT, 'utf8').split('\n').filter(Boolean)) {
      const at = line.indexOf('=');
      outputs[line.slice(0, at)] = line.slice(at + 1);
    }
    if (status !== 0) failed = status ?? 1;
  }
  return { exitCode: failed, outputs, summary: readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8'), used };
}

describe('action.yml', () => {
  it('is a composite action: Node set up, the package installed, reports uploaded and the summary written even after a failure', () => {
    expect(action.runs.using).toBe('composite');
    const [setup, install] = action.runs.steps;
    expect(setup!.uses).toMatch(/^actions\/setup-node@v\d+$/);
    expect(setup!.with?.['node-version']).toBe('${{ inputs.node-version }}');
    expect(install!.run).toContain('npm ci');
    const upload = action.runs.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!;
    expect(upload.if).toContain('always()');
    expect(upload.with?.path).toBe('${{ inputs.report-dir }}');
    expect(action.runs.steps.at(-1)!.if).toBe('always()');
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(['base-url', 'profile', 'shard', 'args', 'report-dir', 'merge']));
    // No input is spliced into a script: a step reads them from its env.
    for (const s of action.runs.steps) expect(s.run ?? '').not.toContain('${{');
  });

  it('passes only flags the CLI has (conformance --help, conformance merge --help)', async () => {
    const script = action.runs.steps.map((s) => s.run ?? '').join('\n');
    const flags = [...script.matchAll(/args\+?=\([^)]*?(--[a-z-]+)/g)].map((m) => m[1]!);
    expect(flags).toEqual(expect.arrayContaining(['--base-url', '--profile', '--shard', '--report-dir']));
    const help = (await runCli(['--help'])).stdout + (await runCli(['merge', '--help'])).stdout;
    for (const flag of flags) expect(help, flag).toContain(`${flag} `);
  });
});

describe('the action run as a runner would, offline', () => {
  let reference: RunningReference;
  let profile: string;
  beforeAll(async () => {
    reference = await startReference({ port: 0 });
    profile = join(dir, 'target.json');
    writeFileSync(profile, JSON.stringify(referenceProfile(reference)));
  });
  afterAll(() => reference.close());

  it('two shards against a URL with a profile, then their merge: reports, artifacts, job summaries, exit codes', async () => {
    const workspace = join(dir, 'workspace');
    const shards = await Promise.all(['1/2', '2/2'].map((shard, i) => runAction({
      'base-url': reference.url, profile, shard, args: '--suite versioning --quiet', 'report-dir': `shards/${i + 1}`,
    }, workspace)));
    for (const [i, job] of shards.entries()) {
      expect(job.exitCode, job.summary).toBe(0);
      expect(job.outputs).toMatchObject({ 'exit-code': '0', 'artifact-name': `conformance-report-${i + 1}-of-2` });
      expect(job.used.find((u) => u.uses.startsWith('actions/upload-artifact@'))?.with).toMatchObject({ name: `conformance-report-${i + 1}-of-2`, path: `shards/${i + 1}` });
      expect(job.summary).toMatch(/^# Conformance: /);
      const written = JSON.parse(readFileSync(join(workspace, `shards/${i + 1}/report.json`), 'utf8')) as RunResult;
      expect(written.shard).toMatchObject({ index: i + 1, count: 2 });
    }
    const merged = await runAction({ merge: 'shards/*/report.json', 'report-dir': 'merged' }, workspace);
    expect(merged.exitCode, merged.summary).toBe(0);
    expect(merged.outputs['artifact-name']).toBe('conformance-report');
    const whole = JSON.parse(readFileSync(join(workspace, 'merged/report.json'), 'utf8')) as RunResult;
    const parts = [1, 2].map((i) => JSON.parse(readFileSync(join(workspace, `shards/${i}/report.json`), 'utf8')) as RunResult);
    expect(whole.checks.length).toBe(parts[0]!.shard!.selected);
    expect(merged.summary).toContain(`${whole.counts.pass} passed`);
  });

  it('a wrong input: the CLI\'s one line in the job summary, its exit code for the step, no reports', async () => {
    const job = await runAction({ 'base-url': reference.url, profile, shard: '3/2', 'report-dir': 'wrong' }, join(dir, 'wrong-workspace'));
    expect(job.exitCode).toBe(2);
    expect(job.outputs['exit-code']).toBe('2');
    expect(job.summary).toContain('### Conformance (shard 3/2): exited 2 without reports');
    expect(job.summary).toContain('conformance: --shard must be i/n with 1 <= i <= n <= 256, such as 2/3, got "3/2"');
  });
});

describe('the README workflow', () => {
  const readme = readFileSync(packagePath('README.md'), 'utf8');
  const block = /<!-- workflow: shards -->\n```yaml\n([\s\S]*?)```/.exec(readme)?.[1];
  const workflow = parse(block ?? '') as { jobs: Record<string, { needs?: string | string[]; if?: string; strategy?: { matrix: { shard: number[] } }; steps: Step[] }> };

  it('runs a matrix of shards and a merge job that gets every shard\'s reports', () => {
    expect(block).toBeDefined();
    const [shardJob, sharded] = Object.entries(workflow.jobs).find(([, j]) => j.strategy?.matrix.shard)!;
    const n = sharded.strategy!.matrix.shard.length;
    expect(sharded.strategy!.matrix.shard).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    const run = sharded.steps.find((s) => s.with?.shard)!;
    expect(run.with!.shard).toBe(`\${{ matrix.shard }}/${n}`);
    expect(run.with!['base-url']).toBeTruthy();
    expect(run.with!.profile).toBeTruthy();
    const [, merging] = Object.entries(workflow.jobs).find(([, j]) => [j.needs].flat().includes(shardJob))!;
    expect(merging.if).toBe('always()');
    const download = merging.steps.find((s) => s.uses?.startsWith('actions/download-artifact@'))!;
    // The action names a shard's artifact <artifact-name>-<i>-of-<n>; download-artifact puts each in a folder of that name.
    expect(download.with!.pattern).toBe(`conformance-report-*-of-${n}`);
    const merge = merging.steps.find((s) => s.with?.merge)!;
    expect(merge.uses).toBe(run.uses);
    expect(merge.with!.merge).toBe(`${download.with!.path}/*/report.json`);
  });
});
