/**
 * One redactor for every output: a suite run through a recording proxy against a target that
 * echoes the credentials it is sent (raw, base64, percent-encoded, in a Location query) and adds
 * secrets of its own (form pairs, token fields, secret headers, a private key) leaves none of them,
 * in any form, in the reports, the step summary, the fixtures, an exported HAR or the console.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxy, type RunningProxy } from '../../proxy/server.js';
import { runCli } from '../helpers/cli.js';
import { leakedForms, OWN, secret, startEchoTarget, type EchoTarget } from './echo-target.js';

const CLASSIC = secret('classic');
const INVALID = secret('invalid');
const PASSWORD = secret('password');
const CLIENT_SECRET = secret('client-secret');
const FORM = { client_secret: secret('form-client-secret'), code: secret('form-code'), password: secret('form-password'), access_token: secret('form-access'), refresh_token: secret('form-refresh') };
const SENT = [CLASSIC, INVALID, PASSWORD, CLIENT_SECRET, `ada:${PASSWORD}`, `app-id:${CLIENT_SECRET}`, `ada:${CLASSIC}`, ...Object.values(FORM)];
const FORMS = [...SENT, ...Object.values(OWN)].flatMap(leakedForms);

/** Every file under `dir`, with its text. */
function files(dir: string): { name: string; text: string }[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).flatMap((name) => {
    try {
      return [{ name: join(dir, name), text: readFileSync(join(dir, name), 'utf8') }];
    } catch {
      return [];
    }
  });
}

function leaks(outputs: { name: string; text: string }[]): string[] {
  return outputs.flatMap(({ name, text }) => FORMS.filter((f) => text.includes(f)).map((f) => `${f} in ${name}`));
}

describe('a suite run and a recording against a target that echoes secrets', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hostile-'));
  const fixtures = join(dir, 'fixtures');
  const reports = join(dir, 'reports');
  const summary = join(dir, 'step-summary.md');
  const har = join(dir, 'export.har');
  let target: EchoTarget;
  let proxy: RunningProxy;
  let printed: { stdout: string; stderr: string }[] = [];

  beforeAll(async () => {
    target = await startEchoTarget();
    proxy = await createProxy({ mode: 'record', target: target.url, fixtures, port: 0 });
    const profile = join(dir, 'profile.json');
    writeFileSync(profile, JSON.stringify({
      base_url: proxy.url,
      tokens: { classic: { value: CLASSIC, login: 'ada' }, invalid: { value: INVALID } },
      password_user: { login: 'ada', password: PASSWORD },
      app_client: { client_id: 'app-id', client_secret: CLIENT_SECRET },
    }));
    const run = await runCli(['--profile', profile, '--suite', 'auth,rate-limit', '--max-requests', '400', '--transcripts', 'all', '--report-dir', reports], { GITHUB_STEP_SUMMARY: summary }, 60_000);
    // An OAuth token exchange: a form with every kind of secret pair, echoed back as a form.
    const form = new URLSearchParams({ client_id: 'app-id', ...FORM, state: 'kept' }).toString();
    const exchange = await request(`${proxy.url}/login/oauth/access_token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
    await exchange.body.text();
    await proxy.close();
    const exported = await runCli(['proxy', 'export-har', '--fixtures', fixtures, '--out', har]);
    printed = [run, exported];
  }, 90_000);
  afterAll(() => target.close());

  it('sent every credential and form secret, and got them echoed (the test has teeth)', () => {
    expect(target.received).toEqual(expect.arrayContaining([`Bearer ${CLASSIC}`, `Basic ${Buffer.from(`ada:${PASSWORD}`).toString('base64')}`, `Basic ${Buffer.from(`app-id:${CLIENT_SECRET}`).toString('base64')}`]));
    expect(target.forms.some((f) => Object.values(FORM).every((s) => f.includes(encodeURIComponent(s))))).toBe(true);
    const transcript = JSON.stringify((JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as { transcript: unknown[] }).transcript);
    expect(transcript).toContain('[REDACTED]');
    expect(readdirSync(reports).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'summary.md']);
    expect(readFileSync(summary, 'utf8').length).toBeGreaterThan(0);
  });

  it('leaves no secret, in any form, in the reports, the step summary, the fixtures, the HAR or the console', () => {
    const outputs = [...files(reports), ...files(fixtures), { name: summary, text: readFileSync(summary, 'utf8') }, { name: har, text: readFileSync(har, 'utf8') },
      ...printed.flatMap((c, i) => [{ name: `stdout ${i}`, text: c.stdout }, { name: `stderr ${i}`, text: c.stderr }])];
    expect(outputs.length).toBeGreaterThan(8);
    expect(leaks(outputs)).toEqual([]);
  });

  it('keeps ordinary headers readable, and of a URL only its secret parameter goes', () => {
    const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as { transcript: { response?: { headers: Record<string, string> } }[] };
    const headers = report.transcript.find((x) => x.response)!.response!.headers;
    expect(headers).toMatchObject({ 'x-ratelimit-limit': '5000', 'x-ratelimit-resource': 'core', 'x-github-request-id': 'ABCD:1234:EF', etag: '"etag-value-1"' });
    expect(headers.link).toBe('<http://127.0.0.1/next?page=2&access_token=[REDACTED]>; rel="next"');
    expect(headers.location).toBe('https://callback.example.invalid/done?token=[REDACTED]&state=kept');
    expect(headers).toMatchObject({ 'x-api-key': '[REDACTED]', 'private-token': '[REDACTED]', 'x-auth-token': '[REDACTED]', 'set-cookie': '[REDACTED]' });
  });
});

describe('credentials in --base-url', () => {
  const PW = secret('base-url-password');
  let target: EchoTarget;
  beforeAll(async () => {
    target = await startEchoTarget();
  });
  afterAll(() => target.close());

  it('reach no output, and the report names the target without them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hostile-url-'));
    const summary = join(dir, 'step-summary.md');
    const base = target.url.replace('http://', `http://ada:${encodeURIComponent(PW)}@`);
    const run = await runCli(['--base-url', base, '--suite', 'auth', '--max-requests', '20', '--transcripts', 'all', '--report-dir', join(dir, 'reports')], { GITHUB_STEP_SUMMARY: summary }, 60_000);
    const refused = await runCli(['--base-url', base.replace('http://', 'ftp://')]);
    expect(refused.status).toBe(2);
    const report = JSON.parse(readFileSync(join(dir, 'reports', 'report.json'), 'utf8')) as { target: { baseUrl: string }; transcript: unknown[] };
    expect(report.target.baseUrl).toBe(target.url);
    expect(report.transcript.length).toBeGreaterThan(0);
    const outputs = [...files(join(dir, 'reports')), { name: summary, text: readFileSync(summary, 'utf8') },
      ...[run, refused].flatMap((c, i) => [{ name: `stdout ${i}`, text: c.stdout }, { name: `stderr ${i}`, text: c.stderr }])];
    const found = outputs.flatMap(({ name, text }) => [...leakedForms(PW), ...leakedForms(`ada:${PW}`)].filter((f) => text.includes(f)).map((f) => `${f} in ${name}`));
    expect(found).toEqual([]);
  }, 90_000);
});
