/**
 * The preflight as a user meets it on the command line: a broken setup is ONE line and an exit
 * code before any check; a partial one is one note, said once.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../reference/server.js';
import {
  htmlBadGateway, rateLimitingOff, rateLimitingOffQuotas, refuseVendorMediaType, rejectTokens, serverErrors, startAlteredReference, type AlteredReference, type Alteration,
} from './helpers/altered-reference.js';
import { lastLine, runCli } from './helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'preflight-cli-'));
const occurrences = (text: string, part: string) => text.split(part).length - 1;

/** A front for the describe block, with its profile written to a file. */
function useFront(alteration: Alteration, options?: Parameters<typeof startAlteredReference>[1]) {
  const handle = { front: undefined as unknown as AlteredReference, profileFile: '' };
  beforeAll(async () => {
    handle.front = await startAlteredReference(alteration, options);
    handle.profileFile = join(dir, `profile-${handle.front.origin.split(':').at(-1)}.json`);
    writeFileSync(handle.profileFile, JSON.stringify(handle.front.profile));
  });
  afterAll(() => handle.front.close());
  return handle;
}

/** Exit status, the one diagnosis as the last stderr line, said once in all the output, before any check. */
async function expectOneDiagnosis(args: string[], status: number, diagnosis: RegExp, said: string) {
  const r = await runCli([...args, '--report-dir', join(dir, String(Math.random()).slice(2))]);
  expect(r.status).toBe(status);
  expect(lastLine(r.stderr)).toMatch(diagnosis);
  expect(occurrences(r.stdout + r.stderr, said)).toBe(1);
  expect(r.stderr).not.toMatch(/^\[\s*\d+\//m);
  expect(r.stdout).not.toMatch(/^(FAIL|schema|search) /m);
  return r;
}

describe('500 to everything', () => {
  const h = useFront(serverErrors);
  it('exit 3, one line', async () => {
    await expectOneDiagnosis(['--profile', h.profileFile], 3, /^conformance: the target answers server errors, not this API: GET .*answered 500/, 'server errors');
  });
});

describe('an HTML 502 page to everything', () => {
  const h = useFront(htmlBadGateway);
  it('exit 3, one line saying the body is not JSON; the report says why it stopped', async () => {
    const r = await expectOneDiagnosis(['--profile', h.profileFile], 3, /^conformance: .*502: body is not JSON/, 'server errors');
    const reportDir = /reports: ([^,]+)report\.json/.exec(r.stdout)?.[1];
    const report = JSON.parse(readFileSync(`${reportDir}report.json`, 'utf8'));
    expect(report.stopped.reason).toBe('server-error');
    expect(report.checks).toEqual([]);
  });
});

describe('every token rejected', () => {
  const h = useFront(rejectTokens());
  it('exit 2 (the profile), one line', async () => {
    await expectOneDiagnosis(['--profile', h.profileFile], 2, /^conformance: the target rejects every token of the profile with 401/, 'rejects every token');
  });
});

describe('the reference served below /api/v3', () => {
  let ref: RunningReference;
  beforeAll(async () => {
    ref = await startReference({ port: 0, prefix: '/api/v3' });
  });
  afterAll(() => ref.close());

  it('a doubled prefix: exit 2, one line naming it and what to pass', async () => {
    await expectOneDiagnosis(['--base-url', ref.url, '--prefix', '/api/v3'], 2,
      new RegExp(`^conformance: doubled prefix: .*pass --base-url ${ref.origin} with --prefix /api/v3`), 'doubled prefix');
  });

  it('no profile and only checks that need a token: exit 2, nothing was checked, with the fix', async () => {
    const r = await runCli(['--base-url', ref.url, '--suite', 'notifications', '--quiet', '--report-dir', join(dir, 'nothing')]);
    expect(r.status).toBe(2);
    expect(lastLine(r.stderr)).toMatch(/^conformance: nothing was checked: .*no profile: write one with `conformance reference --write-profile <file>` as an example, see docs\/profile\.md/);
    expect(occurrences(r.stdout + r.stderr, 'nothing was checked')).toBe(1);
  });

  it('no profile: the checks that need no token run and pass, exit 0, and one note says what the rest need', async () => {
    const r = await runCli(['--base-url', ref.url, '--suite', 'versioning', '--suite', 'notifications', '--quiet', '--report-dir', join(dir, 'anon')]);
    expect(r.status).toBe(0);
    expect(occurrences(r.stderr, 'conformance: note: the profile names no token')).toBe(1);
    expect(r.stdout).toMatch(/versioning\s+[1-9]\d* passed, 0 failed/);
  });

  it('--grep or --suite selecting nothing: exit 2, one line', async () => {
    const g = await runCli(['--base-url', ref.url, '--grep', 'no-such-check-anywhere']);
    expect(g.status).toBe(2);
    expect(g.stderr.trim()).toBe('conformance: nothing to run: --grep "no-such-check-anywhere" selects no check (see --list)');
    const s = await runCli(['--base-url', ref.url, '--suite', 'versioning', '--grep', 'search.max-operators']);
    expect(s.status).toBe(2);
    expect(s.stderr.trim()).toBe('conformance: nothing to run: --suite versioning with --grep "search.max-operators" selects no check (see --list)');
  });
});

describe('406 to the vendor media type', () => {
  const h = useFront(refuseVendorMediaType());
  it('one note, said once; versioning.media-types is the one failure (exit 1)', async () => {
    const r = await runCli(['--profile', h.profileFile, '--suite', 'versioning', '--suite', 'search', '--quiet', '--report-dir', join(dir, 'media')]);
    expect(r.status).toBe(1);
    expect(occurrences(r.stdout + r.stderr, 'refuses the recommended media type')).toBe(1);
    expect(r.stderr).toMatch(/^conformance: note: the target refuses the recommended media type/m);
    expect(r.stdout.match(/^FAIL \S+/gm)).toEqual(['FAIL versioning.media-types']);
  });
});

describe('rate limiting off', () => {
  const h = useFront(rateLimitingOff, { quotas: rateLimitingOffQuotas });
  it('one note, said once on the console and at the top of the reports; nothing fails (exit 0)', async () => {
    const r = await runCli(['--profile', h.profileFile, '--suite', 'rate-limit', '--suite', 'versioning', '--quiet', '--report-dir', join(dir, 'rate')]);
    expect(r.status).toBe(0);
    expect(occurrences(r.stdout + r.stderr, 'rate limiting is off')).toBe(1);
    expect(r.stdout).toMatch(/rate-limit\s+0 passed, 0 failed, 0 warned, [1-9]\d* skipped/);
    const report = JSON.parse(readFileSync(join(dir, 'rate', 'report.json'), 'utf8'));
    expect(report.notices).toEqual([expect.stringMatching(/^rate limiting is off/)]);
    const summary = readFileSync(join(dir, 'rate', 'summary.md'), 'utf8');
    expect(summary.indexOf('> **Note:** rate limiting is off')).toBeLessThan(summary.indexOf('| suite |'));
    expect(readFileSync(join(dir, 'rate', 'report.html'), 'utf8')).toContain('rate limiting is off');
  });
});
