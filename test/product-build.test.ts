/** The build the tests load the product from (helpers/product-build.ts): which imports go there, and when it is too old to use. */
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as paths from '../core/paths.js';
import { PACKAGE_ROOT } from '../core/paths.js';
import { builtPath, productFolders, staleSource } from './helpers/product-build.js';

/** A package with one product folder (core) holding a.ts and b.ts, and a test folder. */
function tinyPackage(): string {
  const root = mkdtempSync(join(tmpdir(), 'product-build-'));
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ include: ['core'] }));
  for (const dir of ['core/sub', 'dist/core/sub', 'test']) mkdirSync(join(root, dir), { recursive: true });
  for (const f of ['core/a.ts', 'core/sub/b.ts', 'core/types.d.ts', 'test/t.ts']) writeFileSync(join(root, f), '');
  return root;
}

const at = (root: string, file: string, seconds: number) => {
  writeFileSync(join(root, file), '');
  utimesSync(join(root, file), seconds, seconds);
};

describe('the product build the tests load', () => {
  it('maps a product source to its build, and leaves tests, declarations and other folders alone', () => {
    const root = tinyPackage();
    expect(builtPath(root, ['core'], join(root, 'core', 'sub', 'b.ts'))).toBe(join(root, 'dist', 'core', 'sub', 'b.js'));
    expect(builtPath(root, ['core'], join(root, 'test', 't.ts'))).toBeUndefined();
    expect(builtPath(root, ['core'], join(root, 'core', 'types.d.ts'))).toBeUndefined();
    expect(builtPath(root, ['core'], join(root, 'core', 'data.json'))).toBeUndefined();
  });

  it('names a source whose build is missing or older, and nothing once every build is newer', () => {
    const root = tinyPackage();
    for (const f of ['core/a.ts', 'core/sub/b.ts']) at(root, f, 1_000);
    at(root, 'dist/core/a.js', 2_000);
    expect(staleSource(root)).toBe(join('core', 'sub', 'b.ts'));
    at(root, 'dist/core/sub/b.js', 500);
    expect(staleSource(root)).toBe(join('core', 'sub', 'b.ts'));
    at(root, 'dist/core/sub/b.js', 2_000);
    expect(staleSource(root)).toBeUndefined();
  });

  it('reads the product folders from tsconfig.json, and this run loads the product from dist/', async () => {
    expect(productFolders(PACKAGE_ROOT)).toEqual(expect.arrayContaining(['core', 'src', 'reference', 'suites', 'proxy']));
    // The module this file imports is the one Node loaded from dist/, not a transformed copy of the source.
    expect(await import(pathToFileURL(join(PACKAGE_ROOT, 'dist', 'core', 'paths.js')).href)).toBe(paths);
  });
});
