import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification, type Vite } from 'vitest/node';
import { builtPath, productFolders } from './test/helpers/product-build.js';

/**
 * Files that spend most of their time waiting (a rate-limit window, a poll interval, a child
 * process's whole run), in a clean clone measured at 1.5 to 7 times their CPU time: started first,
 * their waits overlap the files that only compute. Vitest orders by the durations of a previous run
 * when it has them, and a fresh clone (CI) has none: there, by size, it started the guides last,
 * and the run waited a minute at its end.
 */
const WAITING_FIRST = [
  'test/readme-commands.test.ts',
  'test/guides.test.ts',
  'test/preflight.test.ts',
  'test/suites/sensitivity.test.ts',
  'test/proxy/bundled-cassette.test.ts',
  'test/shard-merge.test.ts',
];
// A renamed file would silently lose its place: named here instead.
const gone = WAITING_FIRST.filter((f) => !existsSync(new URL(f, import.meta.url)));
if (gone.length) throw new Error(`vitest.config.ts WAITING_FIRST names files that do not exist: ${gone.join(', ')}`);

class WaitingFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const at = WAITING_FIRST.indexOf(relative(f.project.config.root, f.moduleId).split('\\').join('/'));
      return at < 0 ? WAITING_FIRST.length : at;
    };
    return sorted.map((f, i) => ({ f, i })).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i).map(({ f }) => f);
  }
}

const ROOT = dirname(fileURLToPath(import.meta.url));
const PRODUCT = productFolders(ROOT);

/**
 * The tests load the product as it ships: each import of a product module resolves to its build in
 * dist/ (which `npm test` compiles first, and the CLI the tests spawn runs anyway), loaded by Node
 * itself rather than transformed by Vite in each worker. Measured over the whole suite, that is
 * 23 CPU-seconds less of about 350 (each test file is a fresh process that loaded some 150 modules).
 * test/global-setup.ts refuses to run on a dist/ older than its sources.
 */
const DIST = new RegExp(`^${join(ROOT, 'dist', sep).replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}`);
const productFromDist: Vite.Plugin = {
  name: 'product-from-dist',
  enforce: 'pre',
  async resolveId(source, importer, options) {
    if (!importer || !source.startsWith('.')) return null;
    const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
    const built = resolved && builtPath(ROOT, PRODUCT, resolved.id);
    return built ? { id: built, external: true } : null;
  },
};

export default defineConfig({
  plugins: [productFromDist],
  test: {
    // What productFromDist resolves to is imported by Node, not inlined by Vite.
    server: { deps: { external: [DIST] } },
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/file-temp.ts'],
    // Most of a run is waiting on X-Poll-Interval and the reference's clocks, not CPU: twice as
    // many workers as cores overlaps the waits (vitest's default, cores - 1, is one worker here).
    maxWorkers: Math.max(2, availableParallelism() * 2),
    sequence: { sequencer: WaitingFirst },
    // Whole runs side by side on a shared two-core machine take minutes at worst.
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
