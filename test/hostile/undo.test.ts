/**
 * Crash-safe undo: each change is on disk before its write is sent, a killed run leaves the journal
 * (holding no secret), the next run into that report directory warns of it, and `conformance undo`
 * puts the target back, or says what it could not put back (exit 5, journal kept).
 */
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { referenceProfile } from '../../reference/profile.js';
import { listen } from '../../core/listen.js';
import { Journal, type JournalLine } from '../../core/journal.js';
import { profileSecrets } from '../../core/profile.js';
import { startAlteredReference } from '../helpers/altered-reference.js';
import { runCli } from '../helpers/cli.js';
import { useReference } from '../helpers/reference.js';
import { alertState, journalLines, runUntilWaiting } from '../helpers/waiting-run.js';

const dir = mkdtempSync(join(tmpdir(), 'undo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the journal file', () => {
  it('holds a change, synced, before its write is sent; a write the target refused is settled as not made and not undone', async () => {
    const file = join(dir, 'unit', 'journal.jsonl');
    const journal = new Journal(file, () => ({ baseUrl: 'http://target.invalid', prefix: '', vendor: 'service', accept: 'application/json', scheme: 'Bearer' }));
    let onDiskAtWrite: JournalLine[] = [];
    const undo = [{ method: 'DELETE', path: '/made' }];
    await journal.journaled('made', undo, async () => { onDiskAtWrite = journalLines(file); return 201; }, (s) => s === 201);
    await journal.journaled('refused', [{ method: 'DELETE', path: '/refused' }], async () => 403, (s) => s === 201);
    expect(onDiskAtWrite.map((l) => l.type)).toEqual(['run', 'change']);
    const sent: string[] = [];
    await journal.unwind(async (step) => { sent.push(step.path); return 204; });
    expect(sent).toEqual(['/made']);
    expect(journal.restored).toBe(1);
    // Everything settled: nothing is left to undo, so no file is left to warn about.
    expect(existsSync(file)).toBe(false);
  });
});

describe('a run killed (SIGKILL) after a write', () => {
  const ref = useReference();

  it('leaves its journal, the next run warns of it, and conformance undo restores the target', async () => {
    const run = await runUntilWaiting(ref.url, dir);
    run.running.child.kill('SIGKILL');
    expect((await run.running.exited).signal).toBe('SIGKILL');

    expect(existsSync(run.journal)).toBe(true);
    expect(await alertState(ref.url, run.alert)).toBe('dismissed');
    const text = readFileSync(run.journal, 'utf8');
    for (const secret of profileSecrets(referenceProfile(ref.server))) expect(text).not.toContain(secret);
    expect(journalLines(run.journal).find((l) => l.type === 'run')).toMatchObject({ target: { baseUrl: ref.server.url.replace(/\/$/, '') } });
    expect(journalLines(run.journal).find((l) => l.type === 'change')).toMatchObject({ undo: [{ method: 'PATCH', path: run.alert, body: { state: 'open' }, as: 'classic' }] });

    const next = await runCli(['--base-url', ref.url, '--profile', 'reference', '--grep', 'conditional.events-etag-quoted', '--report-dir', run.reportDir, '--quiet']);
    const warning = next.stderr.split('\n').find((l) => l.includes('warning'));
    expect(warning).toContain(run.journal);
    expect(warning).toContain(`conformance undo ${run.journal}`);

    const undo = await runCli(['undo', run.journal, '--profile', 'reference']);
    expect(undo.status).toBe(0);
    expect(undo.stdout).toContain(`undone: alert ${run.alert} dismissed`);
    expect(await alertState(ref.url, run.alert)).toBe('open');
    expect(existsSync(run.journal)).toBe(false);
  }, 60_000);
});

describe('a second Ctrl-C while the changes are being undone', () => {
  it('quits at once, leaving the journal, which conformance undo then finishes at another address', async () => {
    // The front stops answering once the first Ctrl-C is sent: the undo of the dismissal hangs.
    let hang = false;
    const front = await startAlteredReference({ hangs: () => hang }, { pollIntervalSeconds: 60 });
    try {
      const run = await runUntilWaiting(front.url, join(dir, 'twice'));
      hang = true;
      run.running.child.kill('SIGINT');
      await run.running.untilStderr('interrupted; undoing', 5000);
      const sent = Date.now();
      run.running.child.kill('SIGINT');
      const exit = await run.running.exited;
      expect((Date.now() - sent) / 1000).toBeLessThan(5);
      expect(exit.status).toBe(130);
      expect(existsSync(run.journal)).toBe(true);
      const reference = front.reference.url;
      expect(await alertState(reference, run.alert)).toBe('dismissed');

      const undo = await runCli(['undo', run.journal, '--profile', 'reference', '--base-url', reference]);
      expect(undo.status).toBe(0);
      expect(await alertState(reference, run.alert)).toBe('open');
    } finally {
      await front.close();
    }
  }, 60_000);
});

describe('conformance undo against a target that refuses the undo', () => {
  it('names the change not undone and the one the API cannot undo, exits 5 and keeps the journal', async () => {
    const server = createServer((_req, res) => res.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"down"}'));
    const { origin } = await listen(server);
    try {
      const file = join(dir, 'refused.jsonl');
      const lines: JournalLine[] = [
        { type: 'run', run: 'r', target: { baseUrl: origin, prefix: '', vendor: 'service', accept: 'application/json', scheme: 'Bearer' }, startedAt: new Date().toISOString() },
        { type: 'change', id: 'r.1', run: 'r', change: 'import into o/r', undo: [{ method: 'DELETE', path: '/repos/o/r/import', ok: [204, 404] }] },
        { type: 'irreversible', run: 'r', change: 'thread 1 marked read', reason: 'no way to mark it unread' },
      ];
      writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
      const profile = join(dir, 'profile.json');
      writeFileSync(profile, JSON.stringify({ base_url: 'http://elsewhere.invalid', tokens: { classic: { value: 'undo-token' } } }));
      const undo = await runCli(['undo', file, '--profile', profile]);
      expect(undo.status).toBe(5);
      expect(undo.stdout).toContain('not undone: import into o/r (undo failed: DELETE /repos/o/r/import answered 500)');
      expect(undo.stdout).toContain('cannot be undone through the API: thread 1 marked read (no way to mark it unread)');
      expect(existsSync(file)).toBe(true);
    } finally {
      server.close();
    }
  });
});
