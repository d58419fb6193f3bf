/**
 * The schemas' validators, compiled at build time (scripts/validators.ts into dist/core/validators.cjs):
 * the built module is exactly what the script makes from the schemas now, and a module made before a
 * schema changed, or missing, is refused with one line saying how to remake it, not used to grade.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../core/paths.js';
import { VALIDATORS_FILE } from '../core/validators.js';
import { generateValidators } from '../scripts/validators.js';

describe('the compiled validators', () => {
  it('are what scripts/validators.ts makes from the schemas now (npm test builds them)', () => {
    expect(readFileSync(VALIDATORS_FILE, 'utf8')).toBe(generateValidators());
  });

  it('made from other schemas, are refused with one line naming npm run build; a profile read too', () => {
    const root = builtCopy();
    const errorSchema = join(root, 'schemas', 'error.schema.json');
    writeFileSync(errorSchema, readFileSync(errorSchema, 'utf8').replace('"title"', '"description": "changed after the build", "title"'));
    const lines = gradeAndReadProfile(root);
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).toBe(`UserError 2: the compiled schema validators (${join(root, 'dist', 'core', 'validators.cjs')}) were made from other schemas than those in schemas/: run npm run build`);
    }
  });

  it('missing (a build that ran tsc alone), are refused with one line naming npm run build', () => {
    const root = builtCopy();
    rmSync(join(root, 'dist', 'core', 'validators.cjs'));
    const lines = gradeAndReadProfile(root);
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toMatch(/^UserError 2: the compiled schema validators \(.*validators\.cjs\) could not be loaded \(Cannot find module .*\): run npm run build$/);
  });
});

/** A copy of the built package (its schemas and dist/core, dist/spec), in a folder of its own. */
function builtCopy(): string {
  const root = mkdtempSync(join(tmpdir(), 'validators-'));
  cpSync(packagePath('package.json'), join(root, 'package.json'));
  cpSync(packagePath('schemas'), join(root, 'schemas'), { recursive: true });
  mkdirSync(join(root, 'dist'));
  cpSync(packagePath('dist', 'core'), join(root, 'dist', 'core'), { recursive: true });
  cpSync(packagePath('dist', 'spec'), join(root, 'dist', 'spec'), { recursive: true });
  symlinkSync(packagePath('node_modules'), join(root, 'node_modules'));
  return root;
}

/** What grading an error body, then reading a profile, does in the copy at `root`: a line each, "used" or the error thrown. */
function gradeAndReadProfile(root: string): string[] {
  const script = [
    `const { grade } = await import(${JSON.stringify(join(root, 'dist', 'core', 'schemas.js'))});`,
    `const { parseProfile } = await import(${JSON.stringify(join(root, 'dist', 'core', 'profile.js'))});`,
    'for (const use of [() => grade("error", { message: "x" }), () => parseProfile({ base_url: "http://x" }, "p.json")]) {',
    '  try { use(); console.log("used"); } catch (err) { console.log(`${err.constructor.name} ${err.exitCode}: ${err.message}`); }',
    '}',
  ].join('\n');
  const out = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(out.stderr).toBe('');
  return out.stdout.trim().split('\n');
}
