/**
 * Run before each test file (vitest setupFiles): the file's temporary folders go into one folder of
 * its own inside the run's (see global-setup.ts), removed when the file is done, whether its tests
 * passed or not. Child processes inherit TMPDIR, so what a spawned CLI leaves goes too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'file-'));
process.env.TMPDIR = dir;
afterAll(() => rmSync(dir, { recursive: true, force: true }));
