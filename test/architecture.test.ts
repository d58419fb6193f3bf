/**
 * The project's import graph has no cycles: dependencies point one way (for the reference,
 * areas → shared helpers, and only reference/areas/index.ts imports the areas). Type-only
 * imports count too: a cycle of types still ties the modules together.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import madge from 'madge';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIRS = ['src', 'spec', 'suites', 'reference', 'proxy', 'reports', 'scripts', 'bench', 'test'];

/** The import graph of the TypeScript files under `dirs` of `root`, resolved as tsc resolves them. */
function importGraph(root: string, dirs: readonly string[]) {
  return madge(dirs.map((d) => join(root, d)), { baseDir: root, fileExtensions: ['ts'], tsConfig: join(ROOT, 'tsconfig.test.json') });
}

describe('import graph', () => {
  let graph: Awaited<ReturnType<typeof importGraph>>;
  beforeAll(async () => {
    graph = await importGraph(ROOT, DIRS);
  });

  it('covers every TypeScript file of the project and resolves every import', () => {
    const files = DIRS.flatMap((d) => readdirSync(join(ROOT, d), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts')).map((f) => `${d}/${f.split('\\').join('/')}`));
    expect(Object.keys(graph.obj()).sort()).toEqual(files.sort());
    expect(graph.warnings().skipped).toEqual([]);
  });

  it('has no cycles', () => {
    expect(graph.circular()).toEqual([]);
  });

  it('reports a cycle closed by a type-only import (the check can fail)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'import-cycle-'));
    try {
      mkdirSync(join(dir, 'src'));
      writeFileSync(join(dir, 'src', 'a.ts'), "import type { B } from './b.js';\nexport const a = (b: B) => b;\n");
      writeFileSync(join(dir, 'src', 'b.ts'), "import { a } from './a.js';\nexport type B = number;\nexport const b = a;\n");
      writeFileSync(join(dir, 'src', 'c.ts'), "import { b } from './b.js';\nexport const c = b;\n");
      const fixture = await importGraph(dir, ['src']);
      expect(fixture.circular()).toEqual([['src/a.ts', 'src/b.ts']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
