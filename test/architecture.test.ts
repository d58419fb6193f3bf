/**
 * The project's import graph points one way. Between folders: down the floors of LAYERS (spec
 * data, core primitives, the four middle folders that never import one another, the runner and
 * commands; scripts, benches and tests outside). Within a folder: no cycles (for the reference,
 * areas → shared helpers, and only reference/areas/index.ts imports the areas). Type-only imports
 * count too: a cycle of types still ties the modules together.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import madge from 'madge';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIRS = ['core', 'src', 'spec', 'suites', 'reference', 'proxy', 'reports', 'scripts', 'bench', 'test'];

/** Each folder's floor: a folder may import only folders on lower floors (and itself). */
const LAYERS: Record<string, number> = {
  spec: 0, core: 1, suites: 2, reference: 2, proxy: 2, reports: 2, src: 3, scripts: 4, bench: 4, test: 5,
};

/** Every import from one folder into another that does not point to a lower floor. */
function importsNotPointingDown(graph: Record<string, string[]>): string[] {
  const folder = (file: string) => file.split('/')[0]!;
  return Object.entries(graph).flatMap(([from, tos]) => tos
    .filter((to) => folder(to) !== folder(from) && !(LAYERS[folder(to)]! < LAYERS[folder(from)]!))
    .map((to) => `${from} -> ${to}`));
}

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

  it('points down the floors: no folder imports a folder on its own floor or above', () => {
    expect(Object.keys(LAYERS).sort()).toEqual([...DIRS].sort());
    expect(importsNotPointingDown(graph.obj())).toEqual([]);
  });

  it('reports an import sideways between middle folders and one pointing up (the check can fail)', () => {
    const fixture = {
      'proxy/rate-limits.ts': ['reference/rate-limiter.ts', 'core/client.ts'],
      'core/client.ts': ['src/runner.ts', 'spec/limits.ts'],
      'src/runner.ts': ['suites/index.ts'],
    };
    expect(importsNotPointingDown(fixture)).toEqual(['proxy/rate-limits.ts -> reference/rate-limiter.ts', 'core/client.ts -> src/runner.ts']);
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

/** The files a module loads when imported: its static value imports, followed (type-only imports are erased). */
function loadedBy(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const m of text.matchAll(/^(?:import|export)\s+(?!type\b)(?:[^;']*?\sfrom\s+)?'(\.[^']+)'/gm)) {
      visit(normalize(join(dirname(file), m[1]!)).replace(/\.js$/, '.ts'));
    }
  };
  visit(entry);
  return seen;
}

describe('each command loads only the modules it uses', () => {
  const folders = (entry: string) => new Set([...loadedBy(entry)].map((f) => f.split('/')[0]));
  it.each([
    ['src/commands/proxy.ts', ['core', 'proxy', 'spec', 'src']],
    ['src/commands/reference.ts', ['core', 'reference', 'spec', 'src']],
    ['src/commands/undo.ts', ['core', 'reference', 'spec', 'src']],
    ['src/commands/validate.ts', ['core', 'src']],
    ['src/commands/merge.ts', ['core', 'reports', 'spec', 'src']],
    // The default command's flags: a wrong one or --help is answered before the suites, the reference or the client load.
    ['src/commands/run-options.ts', ['core', 'reports', 'spec', 'src']],
    ['src/commands/openapi.ts', ['core', 'reference', 'spec', 'src']],
    ['src/cli.ts', ['core', 'src']],
  ])('%s loads only %j', (entry, allowed) => {
    expect([...folders(entry)].sort()).toEqual(allowed);
  });

  it('the default command\'s flags load no HTTP client', () => {
    expect([...loadedBy('src/commands/run-options.ts')].filter((f) => f === 'core/client.ts' || f.startsWith('reports/') && f !== 'reports/transcripts.ts')).toEqual([]);
  });

  it('the run command does load the suites and the reports (the check can fail)', () => {
    expect(folders('src/commands/run.ts')).toEqual(new Set(['core', 'reference', 'reports', 'spec', 'src', 'suites']));
  });
});

describe('the schema compiler (ajv), used at build time only', () => {
  // The compiled validators require only Ajv's small runtime helpers (ajv/dist/runtime/), not the compiler.
  it('is loaded by no shipped module, only by scripts/validators.ts: runs use the validators it compiled', () => {
    const shipped = ['core', 'src', 'spec', 'suites', 'reference', 'proxy', 'reports'].flatMap((d) => readdirSync(join(ROOT, d), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts')).map((f) => `${d}/${f.split('\\').join('/')}`));
    const loadsAjv = (f: string) => /require\('ajv|^import (?!type )[^;]*from 'ajv/m.test(readFileSync(join(ROOT, f), 'utf8'));
    expect(shipped.filter(loadsAjv)).toEqual([]);
    expect(loadsAjv('scripts/validators.ts')).toBe(true);
  });
});

describe('vitest, a peer dependency of conformance/vitest only', () => {
  const shipped = ['core', 'src', 'spec', 'suites', 'reference', 'proxy', 'reports'].flatMap((d) => readdirSync(join(ROOT, d), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts')).map((f) => `${d}/${f.split('\\').join('/')}`));

  it('is imported by src/vitest.ts alone among the shipped modules', () => {
    expect(shipped.filter((f) => /from 'vitest(\/[^']*)?'/.test(readFileSync(join(ROOT, f), 'utf8')))).toEqual(['src/vitest.ts']);
  });

  it('is never loaded by the CLI or a command', () => {
    const entries = ['src/cli.ts', ...readdirSync(join(ROOT, 'src', 'commands')).map((f) => `src/commands/${f}`)];
    expect(entries.filter((e) => loadedBy(e).has('src/vitest.ts'))).toEqual([]);
  });
});
