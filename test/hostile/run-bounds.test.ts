/**
 * A run whose first probe meets a hostile target, as a user meets it on the command line: one line
 * naming the bound, exit 3 (the target), reports written, no stack trace; and the bounds' flags.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../core/bounds.js';
import { lastLine, runCli } from '../helpers/cli.js';
import { deepJson, endless, hostileServer, trickle, type Hostile } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'run-bounds-'));

/** A hostile target answering every path one way, for the describe block. */
function useTarget(answer: Parameters<typeof hostileServer>[0]) {
  const handle = { target: undefined as unknown as Hostile };
  beforeAll(async () => {
    handle.target = await hostileServer(answer);
  });
  afterAll(() => handle.target.close());
  return handle;
}

/** Exit 3 with `diagnosis` as the one line on stderr, and report.json written saying why the run stopped. */
async function expectStopped(args: string[], diagnosis: RegExp, reason: string) {
  const reportDir = mkdtempSync(join(dir, 'report-'));
  const r = await runCli([...args, '--report-dir', reportDir, '--quiet'], {}, 30_000);
  expect(r.status).toBe(3);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(lastLine(r.stderr)).toMatch(diagnosis);
  const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8'));
  expect(report.stopped.reason).toBe(reason);
  expect(report.checks).toEqual([]);
}

describe('a first probe answered with JSON nested 100,000 levels deep', () => {
  const h = useTarget((_, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(deepJson(100_000)));
  it('stops the run naming the depth limit, with reports and without a stack overflow', async () => {
    await expectStopped(['--base-url', h.target.url], new RegExp(`^conformance: .* answered 200: body nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels`), 'not-json');
  });
});

describe('a first probe answered with an endless body', () => {
  const h = useTarget((_, res) => endless(res));
  it('stops the run naming --max-body, with reports', async () => {
    await expectStopped(['--base-url', h.target.url, '--max-body', '0.5'], /^conformance: GET http:\S+: answer body larger than the limit of 0\.5 MB \(--max-body\)$/, 'unreachable');
  });
});

describe('a first probe answered a byte at a time', () => {
  const h = useTarget((_, res) => trickle(res, 200));
  it('stops the run at --total-timeout, though the target is never silent for --timeout', async () => {
    await expectStopped(['--base-url', h.target.url, '--total-timeout', '1', '--timeout', '10'], /^conformance: GET http:\S+: no complete answer within 1000 ms$/, 'unreachable');
  });
});

describe('the bounds\' flags', () => {
  it.each([
    [['--max-body', '0'], /^conformance: --max-body must be a positive number of megabytes, got "0"$/],
    [['--total-timeout', '-1'], /^conformance: --total-timeout must be a positive number of seconds, got "-1"$/],
    [['proxy', '--passthrough', '--target', 'http://127.0.0.1:1', '--max-body', 'lots'], /^conformance: --max-body must be a positive number of megabytes, got "lots"$/],
    [['proxy', '--passthrough', '--target', 'http://127.0.0.1:1', '--upstream-total-timeout', '0'], /^conformance: --upstream-total-timeout must be a positive number of milliseconds, got "0"$/],
  ])('%j is a usage error (exit 2) naming the flag', async (args, message) => {
    const r = await runCli(args, {}, 30_000);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toMatch(message);
  });
});
