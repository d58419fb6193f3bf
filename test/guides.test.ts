/**
 * The guides in docs/ work as written: each guide's command blocks run in order, in one shell
 * session, in an empty folder of their own (test/helpers/shell-session.ts), with `npx conformance`
 * this repository's bin and the ports they name free ones; nothing else is changed. Each guide runs
 * in a test of its own, so vitest may run them side by side.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../core/paths.js';
import { commandBlocks } from './helpers/command-blocks.js';
import { asHere, freePort, ShellSession } from './helpers/shell-session.js';

const GUIDE_MS = 280_000;
const DOCUMENTED_PORTS = ['3000', '8080', '8081'];
const guides = readdirSync(packagePath('docs')).filter((f) => /^guide-.*\.md$/.test(f)).sort();

describe('the guides', () => {
  it('are the two the README names, each with commands to run', () => {
    expect(guides).toEqual(['guide-conformant-server.md', 'guide-record-replay.md']);
    for (const guide of guides) expect(commandBlocks(packagePath('docs', guide)).length, guide).toBeGreaterThan(2);
  });

  for (const guide of guides) {
    it(`${guide} runs as written, step by step, and stops what it starts`, async () => {
      const ports: Record<string, number> = {};
      for (const p of DOCUMENTED_PORTS) ports[p] = await freePort();
      const session = new ShellSession(mkdtempSync(join(tmpdir(), 'guide-')), (command) => asHere(command, ports));
      let left: string[];
      try {
        for (const block of commandBlocks(packagePath('docs', guide))) await session.run(block);
      } finally {
        left = session.running();
        await session.killAll();
      }
      expect(left, 'left running').toEqual([]);
    }, GUIDE_MS);
  }
});
