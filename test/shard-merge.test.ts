/**
 * Sharding: a whole run against the built-in reference (with two faults, so there are real failures
 * and kept exchanges) and the same run as three shards, joined by `conformance merge`: the same
 * checks with the same outcomes in the run order, the same totals in all four report files, the
 * gate as for one run; and the sets merge refuses.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { XMLParser } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { readPackageJson } from '../core/paths.js';
import type { RunResult } from '../core/model.js';
import { writeReports } from '../reports/write.js';
import { planChecks, runConformance } from '../src/runner.js';
import { runCli } from './helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'shard-merge-'));
/** One failure in a module split check by check (events), one in another (search). */
const FAULTS = ['events-network-no-redirect', 'search-issues-operators-unlimited'];
const FAILING = ['events.network-301', 'search.max-operators'];
const shardDirs = [1, 2, 3].map((i) => join(dir, `shard-${i}`));
const shardReports = shardDirs.map((d) => join(d, 'report.json'));
const wholeDir = join(dir, 'whole');
const mergedDir = join(dir, 'merged');

const read = (d: string, file: string) => readFileSync(join(d, file), 'utf8');
const report = (d: string) => JSON.parse(read(d, 'report.json')) as RunResult;
const outcomes = (r: RunResult) => r.checks.map((c) => `${c.id} ${c.outcome}${c.skipReason ? ` ${c.skipReason}` : ''}`);

let merge: Awaited<ReturnType<typeof runCli>>;

beforeAll(async () => {
  // Side by side: a run is mostly waiting (X-Poll-Interval), and each starts a reference of its own.
  const [whole, ...shards] = await Promise.all([
    runConformance({ referenceFaults: FAULTS }),
    ...[1, 2, 3].map((index) => runConformance({ referenceFaults: FAULTS, shard: { index, count: 3 } })),
  ]);
  writeReports(whole!, wholeDir);
  shards.forEach((r, i) => writeReports(r, shardDirs[i]!));
  merge = await runCli(['merge', ...shardReports, '--report-dir', mergedDir]);
});

describe('three shards merged', () => {
  it('hold the checks of one run, each once, with the same outcomes in the run order', () => {
    const whole = report(wholeDir);
    const shards = shardDirs.map(report);
    expect(whole.counts.fail).toBe(FAILING.length);
    expect(shards.map((s) => s.shard?.selected)).toEqual([whole.checks.length, whole.checks.length, whole.checks.length]);
    // Every shard has a part: the split is not all in one.
    for (const s of shards) expect(s.checks.length).toBeGreaterThan(whole.checks.length / 10);
    expect(shards.reduce((n, s) => n + s.checks.length, 0)).toBe(whole.checks.length);
    expect(outcomes(report(mergedDir))).toEqual(outcomes(whole));
  });

  it('keeps a scenario module whole: the lockout checks all run in one shard', () => {
    const holding = shardDirs.map(report).filter((s) => s.checks.some((c) => c.id === 'auth.lockout'));
    expect(holding).toHaveLength(1);
    const lockedOut = report(wholeDir).checks.filter((c) => c.id.startsWith('auth.lockout.')).map((c) => c.id);
    expect(lockedOut.length).toBeGreaterThan(10);
    expect(holding[0]!.checks.map((c) => c.id)).toEqual(expect.arrayContaining(lockedOut));
  });

  it('exits 1 as the run does, and writes the same totals into all four files', () => {
    expect(merge.stderr).toBe('');
    expect(merge.status).toBe(1);
    const whole = report(wholeDir);
    const merged = report(mergedDir);
    expect(merged.counts).toEqual(whole.counts);
    // summary.md: the counts line up to the requests (each shard probes and sends its own), and the suite table.
    const counts = (md: string) => md.split('\n').find((l) => /^\d+ passed/.test(l))!.split(';')[0];
    const table = (md: string) => md.split('\n').filter((l) => l.startsWith('| '));
    expect(counts(read(mergedDir, 'summary.md'))).toBe(counts(read(wholeDir, 'summary.md')));
    expect(table(read(mergedDir, 'summary.md'))).toEqual(table(read(wholeDir, 'summary.md')));
    for (const id of FAILING) expect(read(mergedDir, 'summary.md')).toContain(`\`${id}\``);
    // junit.xml: the totals and each testsuite's.
    const junit = (d: string) => {
      const x = new XMLParser({ ignoreAttributes: false }).parse(read(d, 'junit.xml')).testsuites;
      const suites = (x.testsuite as Record<string, string>[]).map((s) => [s['@_name'], s['@_tests'], s['@_failures'], s['@_skipped']]);
      return { tests: x['@_tests'], failures: x['@_failures'], skipped: x['@_skipped'], suites };
    };
    expect(junit(mergedDir)).toEqual(junit(wholeDir));
    // report.html: the page's data, counts per outcome and per suite.
    const page = (d: string) => {
      const data = JSON.parse(/<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(read(d, 'report.html'))![1]!);
      return { counts: data.counts, suites: data.suites, checks: data.checks.length };
    };
    expect(page(mergedDir)).toEqual(page(wholeDir));
  });

  it('adds up requests per category and points each failing check at its own exchanges', () => {
    const shards = shardDirs.map(report);
    const merged = report(mergedDir);
    expect(merged.requests.total).toBe(shards.reduce((n, s) => n + s.requests.total, 0));
    expect(Object.values(merged.requests.byCategory).reduce((n, c) => n + c, 0)).toBe(merged.requests.total);
    expect(merged.restoration.restored).toBe(shards.reduce((n, s) => n + s.restoration.restored, 0));
    for (const id of FAILING) {
      const check = merged.checks.find((c) => c.id === id)!;
      const shard = shards.find((s) => s.checks.some((c) => c.id === id))!;
      const own = shard.checks.find((c) => c.id === id)!;
      const urls = (r: RunResult, ids: number[]) => ids.map((x) => r.transcript.find((e) => e.id === x)?.request.url);
      expect(urls(merged, check.exchanges)).toEqual(urls(shard, own.exchanges));
      expect(urls(merged, check.exchanges).every(Boolean)).toBe(true);
    }
    const validate = new Ajv2020({ allErrors: true }).compile(readPackageJson<object>('schemas', 'report.schema.json'));
    for (const r of [...shards, merged]) expect(validate(r), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    expect(merged.shard).toBeUndefined();
  });

  it('gates as one run: expected failures pass, a baseline with the same failures is no regression', async () => {
    const expectations = join(dir, 'expectations.json');
    writeFileSync(expectations, JSON.stringify({ 'expected-failures': Object.fromEntries(FAILING.map((id) => [id, 'known'])) }));
    const known = await runCli(['merge', ...shardReports, '--report-dir', join(dir, 'known'), '--expectations', expectations]);
    expect(known.status).toBe(0);
    const listed = known.stdout.split('\n').find((l) => l.startsWith('expected failures: '));
    expect(listed?.slice('expected failures: '.length).split(', ').sort()).toEqual([...FAILING].sort());
    const baseline = join(wholeDir, 'report.json');
    const same = await runCli(['merge', ...shardReports, '--report-dir', join(dir, 'same'), '--baseline', baseline, '--fail-on', 'new']);
    expect(same.status).toBe(0);
    expect(same.stdout).toContain('0 newly failing');
    // A baseline where one of them passed: it is newly failing.
    const before = report(wholeDir);
    before.checks.find((c) => c.id === FAILING[0])!.outcome = 'pass';
    writeFileSync(join(dir, 'before.json'), JSON.stringify(before));
    const regressed = await runCli(['merge', ...shardReports, '--report-dir', join(dir, 'regressed'), '--baseline', join(dir, 'before.json'), '--fail-on', 'new']);
    expect(regressed.status).toBe(1);
    expect(regressed.stdout).toContain(`newly failing: ${FAILING[0]}`);
  });
});

describe('merge refuses a set that is not one whole run', () => {
  /** A shard's report changed by `edit`, written beside the others. */
  const altered = (i: number, name: string, edit: (r: RunResult) => void): string => {
    const r = report(shardDirs[i]!);
    edit(r);
    const d = join(dir, name);
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, 'report.json'), JSON.stringify(r));
    return join(d, 'report.json');
  };
  const [one, two, three] = shardReports as [string, string, string];

  it.each([
    ['no report', () => [], 'merge: no report given'],
    ['a shard twice', () => [one, two, two], `merge: ${two} and ${two} are both shard 2/3`],
    ['a shard missing', () => [one, three], 'merge: shard 2/3 missing (given: 1/3, 3/3)'],
    ['another n', () => [one, two, altered(2, 'of-four', (r) => { r.shard!.count = 4; })], `shard 3/4, ${one} is shard 1/3: the shards of one run share n`],
    ['another version', () => [one, two, altered(2, 'version', (r) => { r.version = '0.0.1'; })], 'was written by conformance 0.0.1'],
    ['another target', () => [one, two, altered(2, 'vendor', (r) => { r.target.vendor = 'github'; })], 'ran against the built-in reference (vendor github)'],
    ['another selection', () => [one, two, altered(2, 'selection', (r) => { r.shard!.selected += 1; })], 'run every shard with the same profile, --suite and --grep'],
    ['a check in two reports', () => [one, two, altered(2, 'doubled', (r) => {
      const other = report(shardDirs[0]!);
      r.checks.push(other.checks[0]!);
      r.shard!.positions.push(other.shard!.positions[0]!);
    })], () => `check ${report(shardDirs[0]!).checks[0]!.id} is in both ${one} and`],
    ['a report of a whole run', () => [one, two, join(wholeDir, 'report.json')], `merge: ${join(wholeDir, 'report.json')} is not the report of a shard (run with --shard i/n)`],
    ['a file that is no report', () => [one, two, join(wholeDir, 'summary.md')], `merge ${join(wholeDir, 'summary.md')}: cannot read`],
  ] as [string, () => string[], string | (() => string)][])('%s: exit 2, one line, nothing written', async (_, inputs, message) => {
    const out = join(dir, 'refused');
    const r = await runCli(['merge', ...inputs(), '--report-dir', out]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(typeof message === 'function' ? message() : message);
    expect(r.stdout).toBe('');
    expect(existsSync(out)).toBe(false);
  });
});

describe('the split', () => {
  it('keeps every scenario module whole in one shard and spreads the modules of independent checks', () => {
    const parts = [1, 2, 3].map((index) => planChecks({ base_url: 'http://plan.invalid' }, { shard: { index, count: 3 } }));
    const shardsOf = new Map<string, Set<number>>();
    const independent = new Map<string, boolean>();
    parts.forEach((part, i) => part.forEach(({ module }) => {
      shardsOf.set(module.name, (shardsOf.get(module.name) ?? new Set()).add(i + 1));
      independent.set(module.name, !!module.independent);
    }));
    const whole = [...shardsOf].filter(([name]) => !independent.get(name));
    expect(whole.length).toBeGreaterThan(5);
    for (const [name, shards] of whole) expect([...shards], name).toHaveLength(1);
    for (const [name, shards] of [...shardsOf].filter(([n]) => independent.get(n))) expect([...shards], name).toHaveLength(3);
    expect(parts.flat().length).toBe(planChecks({ base_url: 'http://plan.invalid' }, {}).length);
  });
});

describe('--shard on the command line', () => {
  const listed = async (args: string[]) => {
    const r = await runCli(['--list', ...args]);
    expect(r.status, r.stderr).toBe(0);
    return r.stdout.split('\n').filter((l) => /^\S+ \[/.test(l)).map((l) => l.split(' ')[0]!);
  };

  it('splits what --suite and --grep select, each check in one shard, whatever the filter', async () => {
    const all = await listed(['--suite', 'versioning']);
    const parts = await Promise.all([1, 2, 3].map((i) => listed(['--suite', 'versioning', '--shard', `${i}/3`])));
    expect(parts.flat().sort()).toEqual([...all].sort());
    // Each part keeps the run order.
    for (const part of parts) expect(part).toEqual(all.filter((id) => part.includes(id)));
    // A check's shard does not depend on the filter: the unfiltered shard holds the same versioning checks.
    const unfiltered = await listed(['--shard', '2/3']);
    expect(unfiltered.filter((id) => id.startsWith('versioning.'))).toEqual(parts[1]);
    const grepped = await listed(['--grep', 'versioning.media', '--shard', '2/3']);
    expect(grepped).toEqual(parts[1]!.filter((id) => id.includes('versioning.media')));
  });

  it('a shard run records its part in report.json', async () => {
    const out = join(dir, 'cli-shard');
    const expected = await listed(['--suite', 'versioning', '--shard', '3/3']);
    const r = await runCli(['--suite', 'versioning', '--shard', '3/3', '--quiet', '--report-dir', out]);
    expect(r.status, r.stderr).toBe(0);
    const written = report(out);
    expect(written.checks.map((c) => c.id)).toEqual(expected);
    expect(written.shard).toMatchObject({ index: 3, count: 3, selected: (await listed(['--suite', 'versioning'])).length });
  });
});
