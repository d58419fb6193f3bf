import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

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

/** Twice as many as cores: see maxWorkers. */
const WORKERS = Math.max(2, availableParallelism() * 2);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/file-temp.ts'],
    // Most of a run is waiting on X-Poll-Interval and the reference's clocks, not CPU: twice as
    // many workers as cores overlaps the waits (vitest's default, cores - 1, is one worker here).
    maxWorkers: WORKERS,
    // Test files share their worker processes: the product's modules load and warm up once per
    // worker, not once per file (measured: 17% less CPU, collect 50 s -> 15 s). So a file sets up
    // at its start what it needs of the process (its TMPDIR in file-temp.ts, nock turned on). All
    // workers are kept to the end: with fewer kept than started, the run twice ended as the last
    // file began, on "Terminating worker thread" from the pool, that file unreported.
    minWorkers: WORKERS,
    poolOptions: { forks: { isolate: false } },
    sequence: { sequencer: WaitingFirst },
    // Whole runs side by side on a shared two-core machine take minutes at worst.
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
