/** Reports of one run agree with each other and with the run, as independent consumers read them, and hold no secret. */
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { XMLParser } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { referenceProfile } from '../../reference/profile.js';
import { startReference } from '../../reference/server.js';
import { writeReports } from '../../reports/write.js';
import { OUTCOMES, SKIP_REASONS, STOP_REASONS, type RunResult } from '../../src/model.js';
import { readPackageJson } from '../../src/paths.js';
import { profileSecrets } from '../../src/profile.js';
import { runConformance } from '../../src/runner.js';

describe('reports of a run with one fault', () => {
  let result: RunResult;
  let dir: string;
  let secrets: string[];
  beforeAll(async () => {
    const ref = await startReference({ port: 0, faults: ['search-issues-operators-unlimited'], pollIntervalSeconds: 1 });
    try {
      const profile = referenceProfile(ref);
      secrets = profileSecrets(profile);
      result = await runConformance({ profile, allowWrites: true });
    } finally {
      await ref.close();
    }
    dir = mkdtempSync(join(tmpdir(), 'reports-'));
    writeReports(result, dir);
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
