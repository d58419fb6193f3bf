/**
 * Every command block of the README runs, in README order, as a user types it into one shell in one
 * empty folder (test/helpers/shell-session.ts says how a line is run and judged); the recipes
 * (`<!-- recipe: … -->`) in a folder of their own, as the README says. What differs from typing it
 * is declared below, once: SUBSTITUTIONS (what a placeholder becomes), SETUP (what a line finds
 * before it runs) and NOT_RUN_HERE (the npm and bench lines of the clone, each with where it runs instead).
 * A new block runs too; one that cannot run as written fails here, naming its line.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packagePath, readPackageJson } from '../core/paths.js';
import { referenceProfile } from '../reference/profile.js';
import { startReference, type RunningReference } from '../reference/server.js';
import { commandBlocks, type CommandLine } from './helpers/command-blocks.js';
import { asHere, freePort, ShellSession } from './helpers/shell-session.js';
import { alertState, runUntilWaiting } from './helpers/waiting-run.js';

const BLOCK_MS = 280_000;
const PORTS = ['8080', '8081', '3000'] as const;

/** The README's placeholder target: a reference this test starts at port 3000's stand-in, under /api/v3. */
const TARGET_PREFIX = '/api/v3';

const NOT_RUN_HERE: Record<string, string> = {
  'npm install': 'installs the clone: .ci/run does (npm ci), and test/package.test.ts installs the packed package',
  'npm test': 'is the run this test belongs to: .ci/run runs it on a fresh clone',
  'npm run coverage -- --write': 'rewrites the tracked spec/coverage/matrix.json; test/coverage.test.ts fails when that file is stale',
  'npm run bench': 'takes both cores for a minute and a half and rewrites docs/performance.md: timings are run by hand, never under the tests',
  'node dist/bench/index.js throughput footprint': 'is a part of npm run bench, with the same reason; the clone\'s dist/bench is built by npm test',
};

const ports: Record<string, number> = {};
const scripts = readPackageJson<{ scripts: Record<string, string> }>('package.json').scripts;

/** What a documented line becomes here, and why, beyond asHere (this bin, free ports). */
const SUBSTITUTIONS: [from: RegExp, to: (match: string) => string, why: string][] = [
  [/https:\/\/host\/api\/v3/g, () => `http://127.0.0.1:3000${TARGET_PREFIX}`, 'the placeholder server is the reference this test starts (port 3000, below)'],
  [/\bfixtures\/reference-full-run\b/g, () => packagePath('fixtures', 'reference-full-run'), "the clone's bundled cassette, from the test's empty folder"],
  // `npm test` has built dist/ before the tests; building it again would change it under them. A
  // script that does not exist stays as written, for npm to refuse.
  [/^npm run (\S+)$/, (m) => scripts[m.slice('npm run '.length)]?.replace(/^npm run build && node dist\//, `"${process.execPath}" ${packagePath('dist')}/`) ?? m, "a script's command without its build step"],
];

const substitute = (command: string) => asHere(SUBSTITUTIONS.reduce((line, [from, to]) => line.replace(from, to), command), ports);

const blocks = commandBlocks(packagePath('README.md'));
let target: RunningReference;
let dir: string;
let main: ShellSession;
let recipes: ShellSession;

/** What a line finds in the folder before it runs, beyond what the lines above it left. */
const SETUP: Record<string, () => Promise<void>> = {
  // A journal is left only by a run killed after a write: kill one, against a reference of its own.
  'npx conformance undo conformance-report/journal.jsonl --profile target.json': async () => {
    const killed = await startReference({ port: 0 });
    const run = await runUntilWaiting(killed.url, join(dir, '..', 'killed'));
    run.running.child.kill('SIGKILL');
    await run.running.exited;
    mkdirSync(join(dir, 'conformance-report'), { recursive: true });
    copyFileSync(run.journal, join(dir, 'conformance-report', 'journal.jsonl'));
    afterUndo = async () => {
      expect(await alertState(killed.url, run.alert)).toBe('open');
      await killed.close();
    };
  },
  'npx conformance --profile target.json --baseline last/report.json --fail-on new': async () => {
    mkdirSync(join(dir, 'last'), { recursive: true });
    copyFileSync(join(dir, 'conformance-report', 'report.json'), join(dir, 'last', 'report.json'));
  },
  'npx conformance --profile target.json --expectations known-failures.json': async () => {
    writeFileSync(join(dir, 'known-failures.json'), JSON.stringify({ 'expected-failures': {} }));
  },
};

/**
 * Each run of the suite against the placeholder server meets it fresh, as a user's run meets their
 * server: two whole runs back to back against one server would share its rate-limit windows.
 */
async function freshTarget(line: CommandLine): Promise<void> {
  if (!/^npx conformance --/.test(line.command) || !line.command.includes('--profile target.json')) return;
  await target.close();
  target = await startReference({ port: ports['3000'], prefix: TARGET_PREFIX, pollIntervalSeconds: 1 });
}

let afterUndo: (() => Promise<void>) | undefined;

beforeAll(async () => {
  for (const p of PORTS) ports[p] = await freePort();
  target = await startReference({ port: ports['3000'], prefix: TARGET_PREFIX, pollIntervalSeconds: 1 });
  const root = mkdtempSync(join(tmpdir(), 'readme-'));
  dir = join(root, 'user');
  mkdirSync(dir);
  mkdirSync(join(root, 'recipes'));
  // target.json: the placeholder server's profile, as `conformance reference --write-profile` writes it.
  writeFileSync(join(dir, 'target.json'), `${JSON.stringify(referenceProfile(target), null, 2)}\n`);
  main = new ShellSession(dir, substitute);
  recipes = new ShellSession(join(root, 'recipes'), substitute);
});

afterAll(async () => {
  await main?.killAll();
  await recipes?.killAll();
  await target?.close();
});

describe('the README', () => {
  it('has its recipes marked: exporting the OpenAPI description, recording a cassette from the reference, then replaying it', () => {
    expect(blocks.filter((b) => b.recipe).map((b) => b.recipe)).toEqual(['openapi', 'record', 'replay']);
  });

  it('runs every line but the npm and bench lines NOT_RUN_HERE names, each of which is in the README and runs where it says', () => {
    const lines = blocks.flatMap((b) => b.lines.map((l) => l.command));
    expect(Object.keys(NOT_RUN_HERE).filter((l) => !lines.includes(l))).toEqual([]);
    expect(Object.keys(SETUP).filter((l) => !lines.includes(l))).toEqual([]);
    const ci = readFileSync(packagePath('.ci', 'run'), 'utf8');
    expect(ci).toMatch(/^npm ci$/m);
    expect(ci).toMatch(/^npm test$/m);
    // Every other line is either a conformance command or a script run without its build step.
    const unrunnable = lines.filter((l) => !NOT_RUN_HERE[l] && !/^(npx conformance\b|kill %)/.test(l) && !/^npm run \S+$/.test(l));
    expect(unrunnable).toEqual([]);
  });

  for (const block of blocks) {
    it(`${block.at}${block.recipe ? ` (recipe ${block.recipe})` : ''} runs as written and stops what it starts`, async () => {
      const session = block.recipe ? recipes : main;
      const runnable = { ...block, lines: block.lines.filter((l) => !NOT_RUN_HERE[l.command]) };
      let left: string[];
      try {
        await session.run(runnable, async (line) => {
          await freshTarget(line);
          await SETUP[line.command]?.();
        });
      } finally {
        left = session.running();
        await session.killAll();
      }
      expect(left, 'left running').toEqual([]);
      if (runnable.lines.some((l) => l.command.startsWith('npx conformance undo'))) {
        expect(existsSync(join(dir, 'conformance-report', 'journal.jsonl'))).toBe(false);
        await afterUndo!();
      }
    }, BLOCK_MS);
  }
});
