/** report.json keeps the exchanges a reader needs: bounded by default, every one whole with `--transcripts all`. */
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeReports } from '../../reports/write.js';
import type { ExchangeRecord, RunResult } from '../../core/model.js';
import { wholeRun } from '../helpers/whole-run.js';

const read = (dir: string) => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as RunResult;

describe('transcripts of the default embedded run', () => {
  let result: RunResult;
  let bounded: string;
  let whole: string;
  beforeAll(async () => {
    result = await wholeRun();
    bounded = mkdtempSync(join(tmpdir(), 'bounded-'));
    writeReports(result, bounded);
    whole = mkdtempSync(join(tmpdir(), 'whole-'));
    writeReports(result, whole, undefined, 'all');
  });

  it('by default report.json stays under 2 MB and says how many exchanges it left out', () => {
    expect(statSync(join(bounded, 'report.json')).size).toBeLessThan(2_000_000);
    const report = read(bounded);
    expect(report.transcriptKept?.omitted).toBe(result.transcript.length - report.transcript.length);
    const kept = new Set(report.transcript.map((e) => e.id));
    for (const c of report.checks.filter((x) => x.outcome === 'pass')) for (const id of c.exchanges) expect(kept.has(id), `${c.id} exchange ${id}`).toBe(false);
  });

  it('with --transcripts all every passing check\'s exchanges are there, whole', () => {
    const report = read(whole);
    expect(report.transcriptKept).toBeUndefined();
    const byId = new Map(report.transcript.map((e) => [e.id, e]));
    const passing = report.checks.filter((c) => c.outcome === 'pass' && c.exchanges.length);
    expect(passing.length).toBeGreaterThan(100);
    for (const c of passing) for (const id of c.exchanges) expect(byId.get(id)?.request.url, `${c.id} exchange ${id}`).toBe(result.transcript.find((e) => e.id === id)!.request.url);
    expect(report.transcript.some((e) => e.response?.bodyOmitted)).toBe(false);
  });
});

describe('transcripts of a failing check', () => {
  const big = { items: Array.from({ length: 2000 }, (_, i) => ({ id: i, name: `item ${i}` })) };
  const exchange: ExchangeRecord = {
    id: 1, request: { method: 'GET', url: 'http://target.invalid/items', headers: {} }, response: { status: 200, headers: {}, body: big }, durationMs: 1,
  };
  const run: RunResult = {
    formatVersion: 1, target: { baseUrl: 'http://target.invalid', prefix: '', vendor: 'service', embeddedReference: false }, startedAt: new Date(0).toISOString(), durationMs: 1,
    counts: { pass: 0, fail: 1, warn: 0, skip: 0, info: 0 },
    checks: [{
      id: 'x.fails', suite: 'x', title: 'fails', outcome: 'fail', message: 'wrong', findings: [{ message: 'wrong' }], exchanges: [1], durationMs: 1,
      requirement: { id: 'x.rule', level: 'MUST', doc: 1, section: 'S', sentence: 'A rule.' },
    }],
    requests: { total: 1, byCategory: { core: 1 } }, transcript: [exchange], restoration: { restored: 0, leaks: [] }, notices: [],
  };

  it('keeps its exchange with a long body cut, saying how much was cut; --transcripts all keeps it whole', () => {
    const pretty = JSON.stringify(big, null, 2);
    const dir = mkdtempSync(join(tmpdir(), 'cut-'));
    writeReports(run, dir);
    const response = read(dir).transcript[0]!.response!;
    expect(typeof response.body).toBe('string');
    const kept = response.body as string;
    expect(kept.length).toBeLessThan(pretty.length / 2);
    expect(pretty.startsWith(kept)).toBe(true);
    expect(response.bodyOmitted).toBe(pretty.length - kept.length);
    writeReports(run, dir, undefined, 'all');
    expect(read(dir).transcript[0]!.response!.body).toEqual(big);
  });
});
