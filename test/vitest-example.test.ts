/**
 * examples/vitest, run as its user runs it: a copy of the folder with the node_modules its
 * `npm install` makes (`conformance` a link to this package, as `file:../..` installs it; vitest
 * and its other dev dependencies the ones installed here), then `vitest run` in a child process
 * with the example's own config, and its type check.
 * Against its server as it is, every check passes or is skipped with its reason; with a named
 * fault, the check for that rule fails quoting the spec sentence, and vitest exits 1.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { packagePath, PACKAGE_ROOT } from '../core/paths.js';
import { normalize, readSpecDocument } from '../src/spec-units.js';
import { copyExample, runVitest, type ExampleFile } from './helpers/vitest-example.js';
import { freePort } from './helpers/shell-session.js';

let project: string;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'vitest-example-'));
  copyExample(project);
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(PACKAGE_ROOT, join(project, 'node_modules', 'conformance'));
  for (const dep of ['vitest', 'typescript', '@types/node']) {
    mkdirSync(join(project, 'node_modules', dep, '..'), { recursive: true });
    symlinkSync(packagePath('node_modules', dep), join(project, 'node_modules', dep));
  }
});

const vitestRun = (env: Record<string, string>) => runVitest(project, join(project, 'node_modules', 'vitest', 'vitest.mjs'), env);

describe('examples/vitest', () => {
  it('registers one test per check of its suites: all pass or skip with a reason, and vitest exits 0', () => {
    const { status, tests, output } = vitestRun({});
    const statusOf = (id: string) => tests.find((t) => t.title.startsWith(`${id}:`))?.status;
    expect(status, output).toBe(0);
    const checks = tests.filter((t) => ['search', 'notifications'].includes(t.ancestorTitles.at(-1)!));
    expect(checks.length).toBeGreaterThan(50);
    expect(checks.every((t) => t.ancestorTitles[0] === 'conformance' && t.title.startsWith(`${t.ancestorTitles[1]}.`))).toBe(true);
    expect(tests.filter((t) => t.status === 'failed')).toEqual([]);
    // Without allowWrites the checks that write are vitest skips, not passes.
    expect(statusOf('notifications.thread-mark-read')).toBe('skipped');
    expect(statusOf('search.max-operators')).toBe('passed');
    expect(tests.find((t) => t.title === 'the run completed')?.status).toBe('passed');
  });

  it('type-checks (strict) against the package\'s declarations: conformance/vitest and the reference it starts', () => {
    const tsc = spawnSync(process.execPath, [join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: project, encoding: 'utf8', timeout: 120_000 });
    expect(tsc.status, `${tsc.stdout}${tsc.stderr}`).toBe(0);
  });

  it('fails the check a named fault breaks, with the spec sentence, the finding and the request; vitest exits 1', () => {
    const { status, tests, output } = vitestRun({ FAULTS: 'search-operators-unlimited' });
    expect(status, output).toBe(1);
    const failed = tests.filter((t) => t.status === 'failed');
    // The fault breaks the operator limit and nothing else: only its checks (issue and code search) fail.
    const ids = failed.map((t) => t.title.split(':')[0]!);
    expect(ids).toContain('search.max-operators');
    expect(ids.filter((id) => !id.startsWith('search.max-operators'))).toEqual([]);
    const message = failed.find((t) => t.title.startsWith('search.max-operators:'))!.failureMessages.join('\n');
    const sentence = /spec: "([^"]+)" \(document 1, /.exec(message)?.[1];
    expect(sentence, message).toBeDefined();
    const document = normalize(readSpecDocument(1));
    for (const passage of sentence!.split(' … ')) expect(document).toContain(passage);
    expect(message).toContain('more than five AND, OR or NOT operators');
    expect(message).toMatch(/six operators: answered 200, not 422/);
    expect(message).toMatch(/request: GET http:\/\/127\.0\.0\.1:\d+\/search\/issues\?q=/);
    expect(message).not.toMatch(/\n\s+at /);
  });

  /** A test file's source running the checks `options` select against the example's server. */
  const againstExampleServer = (options: string) => [
    "import { afterAll } from 'vitest';",
    "import { startServer } from '../server.js';",
    'const server = await startServer();',
    'afterAll(() => server.close());',
    `conformanceTests({ profile: server.profile, ${options} });`,
  ].join('\n');

  /**
   * The cases below, each a test file of its own in one folder beside the example, run by one
   * `vitest run` as a user's suite of several files is: each file is judged by its own results, and
   * the output they share holds each file's lines (a stack trace from any of them fails them all).
   */
  let cases: Promise<{ file(name: string): ExampleFile; output: string }> | undefined;
  const unreachable = freePort().then((port) => `http://127.0.0.1:${port}`);
  const runCases = async () => {
    const sources: Record<string, string> = {
      unreachable: `conformanceTests({ baseUrl: '${await unreachable}', suites: ['search'] });`,
      'unknown-suite': "conformanceTests({ baseUrl: 'http://127.0.0.1:9', suites: ['serach'] });",
      'bad-profile': "conformanceTests({ profile: { base_url: 'http://127.0.0.1:9', tokens: { classic: { value: 7 } } } as never });",
      observed: againstExampleServer("grep: 'versioning.omitted-or-unknown'"),
      limit: againstExampleServer("suites: ['search'], runTimeoutMs: 1"),
    };
    const folder = join(project, 'cases');
    mkdirSync(folder);
    for (const [name, source] of Object.entries(sources)) writeFileSync(join(folder, `${name}.test.ts`), `import { conformanceTests } from 'conformance/vitest';\n${source}\n`);
    const run = runVitest(folder, join(project, 'node_modules', 'vitest', 'vitest.mjs'));
    // Every case fails its file, so the run exits 1.
    expect(run.status, run.output).toBe(1);
    expect(run.files.map((f) => f.name).sort()).toEqual(Object.keys(sources).map((n) => `${n}.test.ts`).sort());
    expect(run.output).not.toMatch(/\n\s+at /);
    return { file: (name: string) => run.files.find((f) => f.name === `${name}.test.ts`)!, output: run.output };
  };
  const runCase = async (name: string) => {
    const { file, output } = await (cases ??= runCases());
    const result = file(name);
    expect(result.status, output).toBe('failed');
    return { ...result, output };
  };

  it('against a server that is not listening: the one diagnosis, from the hook, no check run, and vitest exits 1', async () => {
    const url = await unreachable;
    const { tests, output } = await runCase('unreachable');
    expect(output.split('\n').filter((l) => l.includes(url))).toEqual([`Error: Run stopped (unreachable): GET ${url}/rate_limit: connection refused`]);
    expect(tests.length).toBeGreaterThan(50);
    expect(tests.filter((t) => t.status !== 'skipped')).toEqual([]);
  });

  it('a wrong option or profile is one line naming it, before any request', async () => {
    const suite = await runCase('unknown-suite');
    expect(suite.message).toMatch(/^conformanceTests: unknown suite serach \(suites: alerts, /);
    expect(suite.output).toMatch(/Error: conformanceTests: unknown suite serach \(suites: alerts, /);
    const profile = await runCase('bad-profile');
    expect(profile.message).toMatch(/^conformanceTests: profile given to conformanceTests: tokens\.classic\.value must be a string/);
    expect(profile.output).toMatch(/Error: conformanceTests: profile given to conformanceTests: tokens\.classic\.value must be a string/);
  });

  it('an observation passes with the check in full as its annotation; a run that judged no rule fails `the run completed`', async () => {
    const { tests, output } = await runCase('observed');
    expect(tests.map((t) => [t.title.split(':')[0], t.status])).toEqual([['versioning.omitted-or-unknown', 'passed'], ['the run completed', 'failed']]);
    expect(output).toMatch(/INFO versioning\.omitted-or-unknown \[MAY\][^\n]*\n\s*spec: "Behaviour when the version header is omitted or names an unsupported version: not shown\."/);
    expect(tests[1]!.failureMessages.join('\n')).toMatch(/^Run stopped \(nothing-checked\): nothing was checked/);
  });

  it('a run past runTimeoutMs stops, says so, and skips the checks it did not begin', async () => {
    // No run of 56 checks ends within a millisecond, however fast the machine.
    const { tests, output } = await runCase('limit');
    expect(output).toMatch(/Error: Run stopped at runTimeoutMs \(1 ms\): the checks not begun were skipped/);
    expect(tests.filter((t) => t.status !== 'skipped')).toEqual([]);
  });
});
