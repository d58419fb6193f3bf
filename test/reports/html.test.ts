/**
 * The HTML report in a real browser (Debian's Chromium through playwright-core), used as a person
 * uses it: a run against the reference with one fault, compared with a baseline run without it.
 */
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { referenceProfile } from '../../reference/profile.js';
import { startReference } from '../../reference/server.js';
import { compare, type Comparison } from '../../reports/gate.js';
import { writeReports } from '../../reports/write.js';
import { OUTCOMES, type RunResult } from '../../core/model.js';
import { runConformance } from '../../src/runner.js';
import { reportedRun } from '../helpers/whole-run.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FAILING = 'search.max-operators';

async function runAgainstReference(faults: string[], suites?: string[]): Promise<RunResult> {
  const ref = await startReference({ port: 0, faults, pollIntervalSeconds: 1 });
  try {
    return await runConformance({ profile: referenceProfile(ref), allowWrites: true, ...(suites ? { suites } : {}) });
  } finally {
    await ref.close();
  }
}

describe('the HTML report of a run with one new fault', () => {
  let dir: string;
  let report: RunResult & { comparison: Comparison };
  let browser: Browser;
  let page: Page;
  const requested: string[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`no Chromium at ${CHROMIUM}: install Debian's package (apt-get install -y chromium, as .ci/run does) or set CHROMIUM_PATH`);
    }
    const baseline = await runAgainstReference([], ['search']);
    const { result } = await reportedRun();
    dir = mkdtempSync(join(tmpdir(), 'html-report-'));
    writeReports(result, dir, compare(result, { path: 'baseline/report.json', report: baseline }));
    report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('request', (r) => { requested.push(r.url()); });
    await page.route('**', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text()); });
    page.on('pageerror', (e) => { errors.push(e.message); });
  }, 120_000);
  afterAll(() => browser?.close());
  beforeEach(async () => {
    await page.goto(pathToFileURL(join(dir, 'report.html')).href);
  });

  const row = (id: string) => page.locator(`li.check[data-id="${id}"]`);
  const visibleIds = () => page.locator('li.check:visible').evaluateAll((els) => els.map((e) => e.getAttribute('data-id')));
  const check = (id: string) => report.checks.find((c) => c.id === id)!;

  it('shows the failure first, with its level, message, spec sentence and the new-failure mark', async () => {
    expect(report.counts.fail).toBe(1);
    expect(report.comparison.newlyFailing).toEqual([FAILING]);
    expect(await page.locator('li.check').first().getAttribute('data-id')).toBe(FAILING);
    const failure = row(FAILING);
    const { requirement, message } = check(FAILING);
    expect(await failure.locator('.pill').innerText()).toMatch(/^fail$/i);
    expect(await failure.getByText(requirement.level, { exact: true }).isVisible()).toBe(true);
    expect(await failure.getByText(message).first().isVisible()).toBe(true);
    const quote = await failure.locator('blockquote').innerText();
    expect(quote).toContain(requirement.sentence);
    expect(quote).toContain(`Document ${requirement.doc}, ${requirement.section}`);
    expect(await failure.getByText('new failure').isVisible()).toBe(true);
    expect(await page.locator('li.check .mark').count()).toBe(1);
    expect(await page.locator('#comparison').innerText()).toMatch(/1 newly failing, 0 newly passing/);
  });

  it('expands the failing check\'s transcript: the request URL, headers and highlighted JSON body', async () => {
    const failure = row(FAILING);
    const last = report.transcript.find((e) => e.id === check(FAILING).exchanges.at(-1))!;
    expect(await failure.getByText(last.request.url, { exact: true }).isVisible()).toBe(false);
    await failure.getByText(/^Transcript · \d+ exchanges?$/).click();
    // Transcripts are drawn on the toggle event, which fires after the click: wait for it as a person would.
    await failure.getByText(last.request.url, { exact: true }).waitFor({ state: 'visible', timeout: 5_000 });
    const open = failure.locator('details.exchange[open]');
    await open.locator('.j-key').first().waitFor({ state: 'visible', timeout: 5_000 });
    expect(await open.locator('.status').innerText()).toBe(String(last.response!.status));
    expect(await open.locator('table.headers th', { hasText: 'x-ratelimit-resource' }).isVisible()).toBe(true);
    expect(await open.locator('.j-key').count()).toBeGreaterThan(0);
    expect(await open.locator('.j-key', { hasText: '"total_count"' }).first().isVisible()).toBe(true);
  });

  it('says a passing check\'s exchanges were not kept, the report keeping only those of failing and warning checks', async () => {
    const passing = report.checks.find((c) => c.outcome === 'pass' && c.exchanges.length)!;
    expect(report.transcript.some((e) => passing.exchanges.includes(e.id))).toBe(false);
    expect(await row(passing.id).getByText(/not kept in this report \(--transcripts all/).isVisible()).toBe(true);
    expect(errors).toEqual([]);
  });

  it('the "fail" outcome filter leaves only failing rows, and "All" brings every row back', async () => {
    await page.getByRole('group', { name: 'Outcome' }).getByRole('button', { name: /^fail/ }).click();
    expect(await visibleIds()).toEqual(report.checks.filter((c) => c.outcome === 'fail').map((c) => c.id));
    expect(await page.getByText(`Showing ${report.counts.fail} of ${report.checks.length} checks`).isVisible()).toBe(true);
    await page.getByRole('group', { name: 'Outcome' }).getByRole('button', { name: /^All/ }).click();
    expect(await visibleIds()).toHaveLength(report.checks.length);
  });

  it('the search box filters on id, requirement and spec sentence', async () => {
    const box = page.getByRole('searchbox', { name: 'Search' });
    await box.fill('max-operators');
    // The rule's checks, one per endpoint it governs; the failing one first.
    const ofRule = report.checks.filter((c) => c.requirement.id === 'search.max-operators').map((c) => c.id);
    expect(ofRule.length).toBeGreaterThan(1);
    expect(await visibleIds()).toEqual([FAILING, ...ofRule.filter((id) => id !== FAILING)]);
    // A phrase of one spec sentence finds every check quoting it, whatever the check id says.
    const sentence = check('alerts.tool-filters-exclusive').requirement.sentence;
    const phrase = sentence.split(' ').slice(1, 4).join(' ');
    await box.fill(phrase);
    const expected = report.checks.filter((c) => [c.id, c.title, c.requirement.id, c.requirement.sentence, c.message, ...c.findings.map((f) => f.message)]
      .some((t) => t.toLowerCase().includes(phrase.toLowerCase()))).map((c) => c.id);
    expect(expected).toContain('alerts.tool-filters-exclusive');
    expect((await visibleIds()).sort()).toEqual(expected.sort());
    await box.fill('no such text anywhere');
    expect(await visibleIds()).toEqual([]);
    expect(await page.getByText('No check matches these filters.').isVisible()).toBe(true);
  });

  it('the suite filter shows that suite\'s checks only, and its score is passed / (passed + failed)', async () => {
    await page.getByRole('combobox', { name: 'Suite' }).selectOption('search');
    const search = report.checks.filter((c) => c.suite === 'search');
    expect((await visibleIds()).sort()).toEqual(search.map((c) => c.id).sort());
    const pass = search.filter((c) => c.outcome === 'pass').length;
    const scored = pass + search.filter((c) => c.outcome === 'fail').length;
    expect(await page.locator('tr[data-suite="search"] .pct').innerText()).toBe(`${Math.floor((pass * 100) / scored)}%`);
  });

  it('shows the same counts as report.json and junit.xml, overall and per suite', async () => {
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(readFileSync(join(dir, 'junit.xml'), 'utf8'));
    const tile = async (o: string) => Number(await page.locator(`.tiles [data-count="${o}"]`).innerText());
    for (const o of OUTCOMES) expect(await tile(o), o).toBe(report.counts[o]);
    expect(await tile('fail')).toBe(Number(xml.testsuites.failures));
    expect(await tile('skip')).toBe(Number(xml.testsuites.skipped));
    expect(OUTCOMES.reduce((n, o) => n + report.counts[o], 0)).toBe(Number(xml.testsuites.tests));
    for (const s of [xml.testsuites.testsuite].flat() as { name: string; tests: string; failures: string; skipped: string }[]) {
      const cell = async (o: string) => Number(await page.locator(`tr[data-suite="${s.name}"] td[data-count="${o}"]`).innerText());
      expect(await cell('fail'), s.name).toBe(Number(s.failures));
      expect(await cell('skip'), s.name).toBe(Number(s.skipped));
      expect((await Promise.all(OUTCOMES.map(cell))).reduce((a, b) => a + b, 0), s.name).toBe(Number(s.tests));
    }
  });

  it('lists the changes the API cannot undo, loads nothing from the network, logs no error and stays small', async () => {
    expect(report.restoration.leaks.length).toBeGreaterThan(0);
    const restoration = await page.locator('#restoration').innerText();
    for (const leak of report.restoration.leaks) expect(restoration).toContain(leak.change);
    expect(requested.length).toBeGreaterThan(0);
    expect(requested.filter((u) => !u.startsWith('file:'))).toEqual([]);
    expect(errors).toEqual([]);
    // A whole run's exchanges weigh tens of megabytes; the page keeps those of the failing check, bodies cut.
    expect(statSync(join(dir, 'report.html')).size).toBeLessThan(1_000_000);
  });

  it('looks right (screenshots for a person to review)', async () => {
    await page.screenshot({ path: join(dir, 'report-top.png') });
    await row(FAILING).getByText(/^Transcript/).click();
    await row(FAILING).locator('details.exchange[open] .j-key').first().waitFor({ state: 'visible', timeout: 5_000 });
    await row(FAILING).evaluate((e) => e.scrollIntoView());
    await page.screenshot({ path: join(dir, 'report-failure.png') });
    console.info(`HTML report screenshots: ${join(dir, 'report-top.png')}, ${join(dir, 'report-failure.png')}`);
    expect(statSync(join(dir, 'report-failure.png')).size).toBeGreaterThan(10_000);
  });

  it('keeps what the target sent as text: markup in ids, messages, notices, headers and bodies never runs; a stopped run and the setup notices say so', async () => {
    const hostile = structuredClone(report);
    const attack = '</script><script>window.pwned=1</script><img src=x onerror="window.pwned=2">';
    hostile.stopped = { reason: 'budget-exhausted', message: attack };
    hostile.notices = [attack];
    const target = hostile.checks.find((c) => c.id === FAILING)!;
    Object.assign(target, { id: `x${attack}`, message: attack, findings: [{ path: '/<b>', message: attack }] });
    const exchange = hostile.transcript.find((e) => e.id === target.exchanges.at(-1))!;
    exchange.response!.headers['x-evil'] = attack;
    exchange.response!.body = { attack, '<!--': '<script>' };
    const hostileDir = mkdtempSync(join(tmpdir(), 'html-hostile-'));
    writeReports(hostile, hostileDir);
    expect(readFileSync(join(hostileDir, 'report.html'), 'utf8')).not.toContain('<script>window.pwned');
    await page.goto(pathToFileURL(join(hostileDir, 'report.html')).href);
    const alert = page.getByRole('alert');
    expect(await alert.locator('h3').innerText()).toBe('Run stopped (budget-exhausted)');
    expect(await alert.locator('p').innerText()).toBe(attack);
    expect(await page.locator('#setup-notices p').innerText()).toBe(attack);
    const shown = page.locator('li.check').first();
    expect(await shown.locator('.check-id').innerText()).toBe(`x${attack}`);
    await shown.getByText(/^Transcript/).click();
    expect(await shown.locator('table.headers td', { hasText: 'window.pwned' }).innerText()).toBe(attack);
    expect(await shown.locator('pre.code').last().innerText()).toContain(JSON.stringify(attack).slice(1, 40));
    expect(await page.evaluate('window.pwned')).toBeUndefined();
    expect(await page.locator('img, b').count()).toBe(0);
  });
});
