/**
 * The package as a user gets it: packed, installed into an empty project without dev
 * dependencies, and run from there. Nothing here may rely on the repository around it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT, packagePath, readPackageJson } from '../core/paths.js';
import { typeErrors } from './helpers/typecheck.js';
import { copyExample, runVitest } from './helpers/vitest-example.js';

interface PackageJson { version: string; engines: { node: string }; dependencies: Record<string, string> }
const pkg = readPackageJson<PackageJson>('package.json');
const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

let dir: string;
let tarball: string;
let files: string[];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'conformance-package-'));
  // dist/ is built by `npm test` before the tests; packing must not rebuild it under running tests.
  const packed = JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], PACKAGE_ROOT)) as { filename: string; files: { path: string }[] }[];
  tarball = join(dir, packed[0]!.filename);
  files = packed[0]!.files.map((f) => f.path);
  const project = join(dir, 'project');
  execFileSync('mkdir', [project]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'user-project', version: '1.0.0', private: true }));
  npm(['install', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', tarball], project);
}, 180_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const conformance = (args: string[]) => spawnSync('npx', ['--no-install', 'conformance', ...args], { cwd: join(dir, 'project'), encoding: 'utf8', timeout: 150_000 });

describe('the packed tarball', () => {
  it('ships the compiled CLI with its type declarations, its schemas, the resource types and docs, and no tests, benches, scripts, sources or fixtures', () => {
    expect(files).toContain('bin/conformance.js');
    expect(files).toContain('types/index.d.ts');
    expect(files).toContain('dist/src/cli.js');
    expect(files.filter((f) => f.startsWith('schemas/')).length).toBeGreaterThan(10);
    expect(files.filter((f) => /^(test|bench|scripts|fixtures|dist\/test|dist\/bench|dist\/scripts)\//.test(f))).toEqual([]);
    expect(files.filter((f) => (f.endsWith('.ts') && !f.endsWith('.d.ts')) || f.endsWith('.map'))).toEqual([]);
    // Types for TypeScript users of the library entries.
    expect(files).toContain('dist/src/vitest.d.ts');
  });

  it('declares a Node range every runtime dependency supports', () => {
    for (const name of Object.keys(pkg.dependencies)) {
      const theirs = (JSON.parse(readFileSync(join(dir, 'project', 'node_modules', name, 'package.json'), 'utf8')) as { engines?: { node?: string } }).engines?.node;
      if (theirs) expect(semver.subset(pkg.engines.node, theirs), `${name} needs node ${theirs}`).toBe(true);
    }
  });

  it('depends only on packages the shipped code imports', () => {
    const installed = join(dir, 'project', 'node_modules', 'conformance');
    // The compiled validators (a .cjs file Ajv's code generator wrote) require its runtime helpers.
    const code = files.filter((f) => /\.c?js$/.test(f)).map((f) => readFileSync(join(installed, f), 'utf8')).join('\n');
    const unused = Object.keys(pkg.dependencies).filter((name) => !new RegExp(`(from |require\\(|import\\()['"]${name}(/[^'"]*)?['"]`).test(code));
    expect(unused).toEqual([]);
  });

  it('offers the resource types to an installed copy\'s TypeScript: `import type { ... } from \'conformance\'`', () => {
    const file = join(dir, 'project', 'uses-types.mts');
    writeFileSync(file, [
      "import type { LargeFile } from 'conformance';",
      "export const file: LargeFile = { path: 'assets/intro.mp4', size: 536870912 };",
      "export const wrong: LargeFile = { size: '512 MB' };",
    ].join('\n'));
    const errors = typeErrors([file]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/uses-types\.mts:3: Type 'string' is not assignable to type 'number'/);
  });

  it('runs from an installed copy: --version, -h and a whole run against the built-in reference', () => {
    const version = conformance(['--version']);
    expect(version.status).toBe(0);
    expect(version.stdout.trim()).toBe(pkg.version);
    const help = conformance(['-h']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/Commands:[\s\S]*proxy/);
    const run = conformance(['--quiet', '--report-dir', 'out']);
    expect(run.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND|at .*\.js:\d+/);
    expect(run.status).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'project', 'out', 'report.json'), 'utf8')) as { counts: Record<string, number> };
    expect(report.counts.fail).toBe(0);
    expect(report.counts.pass).toBeGreaterThan(600);
  }, 180_000);

  it('resolves conformance/vitest from the installed copy, without installing vitest (an optional peer)', () => {
    const project = join(dir, 'project');
    const resolved = execFileSync(process.execPath, ['--input-type=module', '-e', "console.log(import.meta.resolve('conformance/vitest'))"], { cwd: project, encoding: 'utf8' }).trim();
    expect(fileURLToPath(resolved)).toBe(join(project, 'node_modules', 'conformance', 'dist', 'src', 'vitest.js'));
    expect(existsSync(fileURLToPath(resolved))).toBe(true);
    expect(existsSync(join(project, 'node_modules', 'vitest'))).toBe(false);
  });

  it('runs examples/vitest against the installed copy once the user adds vitest', () => {
    const project = join(dir, 'project');
    symlinkSync(packagePath('node_modules', 'vitest'), join(project, 'node_modules', 'vitest'));
    const example = join(project, 'example');
    mkdirSync(example);
    copyExample(example);
    const { status, tests, output } = runVitest(example, join(project, 'node_modules', 'vitest', 'vitest.mjs'));
    expect(status, output).toBe(0);
    expect(tests.filter((t) => t.status === 'passed').length).toBeGreaterThan(50);
  }, 180_000);
});
