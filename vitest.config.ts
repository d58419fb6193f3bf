import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/file-temp.ts'],
    // Most of a run is waiting on X-Poll-Interval and the reference's clocks, not CPU: twice as
    // many workers as cores overlaps the waits (vitest's default, cores - 1, is one worker here).
    maxWorkers: Math.max(2, availableParallelism() * 2),
    // Whole runs side by side on a shared two-core machine take minutes at worst.
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
