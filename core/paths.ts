/** Locates files of the package (schemas, fixtures) from both the sources and the compiled dist/. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package root not found');
    dir = parent;
  }
  return dir;
}

export const PACKAGE_ROOT = findRoot();

export function packagePath(...parts: string[]): string {
  return join(PACKAGE_ROOT, ...parts);
}

export function readPackageJson<T = unknown>(...parts: string[]): T {
  return JSON.parse(readFileSync(packagePath(...parts), 'utf8')) as T;
}
