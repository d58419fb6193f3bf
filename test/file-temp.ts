/**
 * Run before each test file (vitest setupFiles): the file's temporary folders go into one folder of
 * its own inside the run's (see global-setup.ts), removed when the file is done, whether its tests
 * passed or not. Child processes inherit TMPDIR, so what a spawned CLI leaves goes too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll } from 'vitest';

// The run's folder, not tmpdir(): a worker runs several files, and tmpdir() is the last one's.
const dir = mkdtempSync(join(process.env.CONFORMANCE_TEST_TMP!, 'file-'));
process.env.TMPDIR = dir;
afterAll(() => rmSync(dir, { recursive: true, force: true }));
