/** A run ended by Ctrl-C says so in every report, not only in report.json. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeReports } from '../../reports/write.js';
import type { RunResult } from '../../core/model.js';
import { runConformance } from '../../src/runner.js';

describe('reports of an interrupted run', () => {
  let result: RunResult;
  let dir: string;
  beforeAll(async () => {
    const interrupt = new AbortController();
    result = await runConformance({ suites: ['search'], signal: interrupt.signal, onCheck: (_, i) => { if (i === 2) interrupt.abort(); } });
    dir = mkdtempSync(join(tmpdir(), 'interrupted-'));
    writeReports(result, dir);
  });
  const file = (name: string) => readFileSync(join(dir, name), 'utf8');

  it('report.json records the interruption and the skipped rest', () => {
    expect(JSON.parse(file('report.json')).stopped.reason).toBe('interrupted');
    expect(result.checks.filter((c) => c.skipReason === 'interrupted').length).toBeGreaterThan(0);
  });

  it('summary.md says so before its tables', () => {
    const md = file('summary.md');
    const said = md.search(/interrupted/i);
    expect(said).toBeGreaterThan(-1);
    expect(said).toBeLessThan(md.indexOf('| suite |'));
  });

  it('junit.xml carries it as an error of the run, so CI shows the run incomplete', () => {
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(file('junit.xml'));
    expect(Number(xml.testsuites.errors)).toBe(1);
    const cases = [xml.testsuites.testsuite].flat().flatMap((s: { testcase: unknown }) => [s.testcase].flat()) as { error?: { type: string; message: string } }[];
    const errors = cases.filter((c) => c.error) as { error: { type: string; message: string } }[];
    expect(errors.map((c) => c.error.type)).toEqual(['interrupted']);
    expect(errors[0]!.error.message).toMatch(/interrupted/i);
  });

  it('report.html gives the page a heading that says interrupted', () => {
    const data = JSON.parse(/<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(file('report.html'))![1]!) as { stopped?: { heading: string } };
    expect(data.stopped?.heading).toMatch(/interrupted/i);
  });
});
