/**
 * Where the tests load the product from: its build in dist/, as tsconfig.json compiles it (npm test
 * compiles first). vitest.config.ts resolves each product import there; global-setup.ts refuses a
 * build older than its sources, which would test code that no longer exists.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** The product's folders: what tsconfig.json compiles. */
export function productFolders(root: string): string[] {
  return (JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')) as { include: string[] }).include;
}

/** The build of a product source (a .ts file in a product folder), or undefined for anything else. */
export function builtPath(root: string, folders: readonly string[], source: string): string | undefined {
  const path = relative(root, source);
  if (!path.endsWith('.ts') || path.endsWith('.d.ts') || !folders.includes(path.split(sep)[0]!)) return undefined;
  return join(root, 'dist', path.replace(/\.ts$/, '.js'));
}

/** The first product source whose build is missing or older than it, relative to root; undefined when the build is current. */
export function staleSource(root: string): string | undefined {
  const folders = productFolders(root);
  for (const folder of folders) {
    for (const entry of readdirSync(join(root, folder), { recursive: true, withFileTypes: true })) {
      const source = join(entry.parentPath, entry.name);
      const built = entry.isFile() ? builtPath(root, folders, source) : undefined;
      if (!built) continue;
      const builtAt = statSync(built, { throwIfNoEntry: false })?.mtimeMs;
      if (builtAt === undefined || builtAt < statSync(source).mtimeMs) return relative(root, source);
    }
  }
  return undefined;
}
