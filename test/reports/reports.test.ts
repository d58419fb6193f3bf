/** Reports of one run agree with each other and with the run, as independent consumers read them, and hold no secret. */
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { XMLParser } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeReports } from '../../reports/write.js';
import { OUTCOMES, SKIP_REASONS, STOP_REASONS, type RunResult } from '../../core/model.js';
import { readPackageJson } from '../../core/paths.js';
import { reportedRun } from '../helpers/whole-run.js';

describe('reports of a run with one fault', () => {
  let result: RunResult;
  let dir: string;
  let secrets: string[];
  beforeAll(async () => {
    ({ result, secrets } = await reportedRun());
    dir = mkdtempSync(join(tmpdir(), 'reports-'));
    // Every exchange, whole: the secrets test below then reads all that was sent and answered.
    writeReports(result, dir, undefined, 'all');
  });

  it('JUnit: an independent parser counts the same tests, failures and skips', () => {
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(readFileSync(join(dir, 'junit.xml'), 'utf8'));
    const suites = [xml.testsuites.testsuite].flat();
    const cases = suites.flatMap((s: { testcase: unknown }) => [s.testcase].flat()) as { name: string; failure?: { '#text': string }; skipped?: unknown }[];
    expect(cases).toHaveLength(result.checks.length);
    expect(Number(xml.testsuites.tests)).toBe(result.checks.length);
    expect(cases.filter((c) => c.failure).map((c) => c.name)).toEqual(result.checks.filter((c) => c.outcome === 'fail').map((c) => c.id));
    expect(cases.filter((c) => c.skipped !== undefined)).toHaveLength(result.counts.skip);
    expect(Number(xml.testsuites.failures)).toBe(result.counts.fail);
    const failure = cases.find((c) => c.name === 'search.max-operators')!.failure!['#text'];
    expect(failure).toContain('more than five AND, OR or NOT operators');
    expect(failure).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/search\/issues\?q=/);
  });

  it('JSON and Markdown say the same counts, and report.json follows its published schema', () => {
    const json = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as RunResult;
    const validate = new Ajv2020({ allErrors: true }).compile(readPackageJson<object>('schemas', 'report.schema.json'));
    expect(validate(json), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    expect(json.counts).toEqual(result.counts);
    expect(json.counts.fail).toBe(1);
    const md = readFileSync(join(dir, 'summary.md'), 'utf8');
    expect(md).toContain(`${result.counts.pass} passed, ${result.counts.fail} failed`);
    expect(md).toContain('search.max-operators');
  });

  it('JSON, Markdown, JUnit and HTML say the same counts of checks and requests, and the request categories add up to the total', () => {
    const json = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as RunResult;
    expect(Object.values(json.requests.byCategory).reduce((n, c) => n + c, 0)).toBe(json.requests.total);
    expect(json.requests.total).toBe(result.transcript.length);
    // Markdown: the table's rows add up to the run's counts, and the requests line names the same total and categories.
    const md = readFileSync(join(dir, 'summary.md'), 'utf8');
    const rows = [...md.matchAll(/^\| [\w-]+ \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$/gm)].map((m) => m.slice(1).map(Number));
    const sum = (i: number) => rows.reduce((n, r) => n + r[i]!, 0);
    expect({ pass: sum(0), fail: sum(1), warn: sum(2), skip: sum(3), info: sum(4) }).toEqual(json.counts);
    expect(md).toContain(`${json.requests.total} requests`);
    for (const [category, n] of Object.entries(json.requests.byCategory)) expect(md).toContain(`${category} ${n}`);
    // JUnit: each testcase's outcome property, counted.
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(readFileSync(join(dir, 'junit.xml'), 'utf8'));
    const cases = [xml.testsuites.testsuite].flat().flatMap((s: { testcase: unknown }) => [s.testcase].flat()) as { properties: { property: { name: string; value: string }[] } }[];
    const outcomes = cases.map((c) => c.properties.property.find((p) => p.name === 'outcome')!.value);
    for (const o of OUTCOMES) expect(outcomes.filter((x) => x === o).length, o).toBe(json.counts[o]);
    // HTML: the data the page draws from.
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    const data = JSON.parse(/<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html)![1]!) as { counts: RunResult['counts']; requests: string };
    expect(data.counts).toEqual(json.counts);
    expect(data.requests).toContain(`${json.requests.total} requests`);
    for (const [category, n] of Object.entries(json.requests.byCategory)) expect(data.requests).toContain(`${category} ${n}`);
  });

  it('the report schema names exactly the outcomes, skip reasons and stop reasons the runner uses', () => {
    const check = readPackageJson<{ $defs: { check: { properties: Record<string, { enum: unknown[] }> } } }>('schemas', 'report.schema.json').$defs.check.properties;
    expect(check.outcome!.enum).toEqual([...OUTCOMES]);
    expect(check.skipReason!.enum).toEqual([...SKIP_REASONS]);
    const stopped = readPackageJson<{ properties: { stopped: { properties: { reason: { enum: unknown[] } } } } }>('schemas', 'report.schema.json').properties.stopped;
    expect(stopped.properties.reason.enum).toEqual([...STOP_REASONS]);
  });

  it('no report holds a token or password that was sent', () => {
    expect(secrets.length).toBeGreaterThan(5);
    for (const file of readdirSync(dir)) {
      const text = readFileSync(join(dir, file), 'utf8');
      for (const s of secrets) expect(text.includes(s), `${file} contains a secret`).toBe(false);
      expect(text, file).not.toContain('conformance-secret-pw');
    }
  });
});
