/**
 * A real client against the replaying proxy: @octokit/rest with the throttling plugin, sending the
 * real platform's header names (application/vnd.github+json, X-GitHub-Api-Version) to fixtures
 * recorded with the spec's (application/vnd.service+json, X-Service-Api-Version). The throttling
 * plugin reads the synthesized rate-limit headers and waits for the reset they announce.
 */
import { throttling } from '@octokit/plugin-throttling';
import { Octokit } from '@octokit/rest';
import Bottleneck from 'bottleneck';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxy, SESSION_HEADER, type ProxyOptions, type RunningProxy } from '../../proxy/server.js';
import { referenceProfile } from '../../reference/profile.js';
import { startReference } from '../../reference/server.js';
import { call, TOKENS } from '../helpers/reference.js';
import { tempCassette } from './helpers.js';

const VERSION = '2026-03-10';
const ThrottledOctokit = Octokit.plugin(throttling);
const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

interface Limited { retryAfter: number; retryCount: number; at: number }

/** An octokit on the proxy that talks like a GitHub client; `limited` collects the plugin's rate-limit calls. */
function client(proxy: RunningProxy, session: string, onRateLimit: (l: Limited) => boolean = () => false) {
  const octokit = new ThrottledOctokit({
    baseUrl: proxy.url, auth: TOKENS.classic, log: quiet,
    throttle: {
      // The plugin spaces searches two seconds apart by default; this test spends a window quickly instead.
      search: new Bottleneck.Group({ maxConcurrent: 1, minTime: 0 }),
      onRateLimit: (retryAfter, _options, _octokit, retryCount) => onRateLimit({ retryAfter, retryCount, at: Date.now() }),
      onSecondaryRateLimit: () => false,
    },
  });
  octokit.hook.before('request', (options) => {
    Object.assign(options.headers, { accept: 'application/vnd.github+json', 'x-github-api-version': VERSION, [SESSION_HEADER]: session });
  });
  return octokit;
}

describe('@octokit/rest against the replaying proxy', () => {
  const fixtures = tempCassette();
  let resources: ReturnType<typeof referenceProfile>['resources'] & {};
  const repo = () => {
    const [owner = '', name = ''] = (resources.public_repo ?? '').split('/');
    return { owner, repo: name };
  };
  const importRepo = () => {
    const [owner = '', name = ''] = (resources.import_repo ?? '').split('/');
    return { owner, repo: name };
  };
  const importBody = () => ({ vcs: 'subversion' as const, vcs_url: resources.import_urls!.ok! });
  /** Replays with a clock whose search window opened 55 s ago, so its reset is five seconds away. */
  let lag = 0;
  let proxy: RunningProxy;

  beforeAll(async () => {
    // Record with the spec's names, as the conformance client sends them.
    const reference = await startReference({ port: 0, pollIntervalSeconds: 1 });
    resources = referenceProfile(reference).resources ?? {};
    const recorder = await createProxy({ mode: 'record', target: reference.url, fixtures });
    const spec = { headers: { 'x-service-api-version': VERSION } };
    try {
      const { owner, repo: name } = repo();
      const imp = importRepo();
      for (const [path, opts] of [
        ['/search/issues?q=widget', spec],
        ['/notifications?per_page=5', spec],
        [`/repos/${owner}/${name}/events`, spec],
        [`/repos/${owner}/${name}/code-scanning/alerts`, spec],
        [`/repos/${imp.owner}/${imp.repo}/import`, { ...spec, method: 'PUT', body: importBody() }],
        [`/repos/${imp.owner}/${imp.repo}/import`, spec],
      ] as const) expect((await call(recorder.url, path, opts)).status).toBeLessThan(300);
    } finally {
      await recorder.close();
      await reference.close();
    }
    const options: ProxyOptions = { mode: 'replay', fixtures, rateLimits: { now: () => Date.now() - lag } };
    proxy = await createProxy(options);
  });
  afterAll(async () => {
    await proxy?.close();
  });

  it('searches, lists notifications, events and code scanning alerts, reads the rate limit and starts an import, all replayed', async () => {
    const octokit = client(proxy, 'calls');
    const search = await octokit.rest.search.issuesAndPullRequests({ q: 'widget' });
    expect(search.data.total_count).toBeGreaterThan(0);
    expect(search.headers['x-ratelimit-resource']).toBe('search');
    expect(search.headers['x-ratelimit-limit']).toBe('30');
    const notifications = await octokit.rest.activity.listNotificationsForAuthenticatedUser({ per_page: 5 });
    expect(notifications.data.length).toBeGreaterThan(0);
    const events = await octokit.rest.activity.listRepoEvents(repo());
    expect(events.data.length).toBeGreaterThan(0);
    const alerts = await octokit.rest.codeScanning.listAlertsForRepo(repo());
    expect(alerts.data.length).toBeGreaterThan(0);
    const started = await octokit.request('PUT /repos/{owner}/{repo}/import', { ...importRepo(), ...importBody() });
    expect(started.status).toBe(201);
    const progress = await octokit.request('GET /repos/{owner}/{repo}/import', importRepo());
    expect(progress.data).toHaveProperty('status');

    const { data: rate } = await octokit.rest.rateLimit.get();
    expect(rate.resources.search).toMatchObject({ limit: 30, used: 1, remaining: 29 });
    expect(rate.rate).toEqual(rate.resources.core);
    // Notifications, events, alerts and the two import calls: core; GET /rate_limit itself is free.
    expect(rate.resources.core.used).toBe(5);
    expect((await octokit.rest.rateLimit.get()).data.resources.core.used).toBe(5);
  });

  it('gets a 304 for the ETag it was given (octokit reports it as an error), which costs nothing', async () => {
    const octokit = client(proxy, 'conditional');
    const first = await octokit.rest.activity.listRepoEvents(repo());
    expect(first.headers.etag).toMatch(/^"[^"]+"$/);
    const again = octokit.rest.activity.listRepoEvents({ ...repo(), headers: { 'if-none-match': first.headers.etag! } });
    await expect(again).rejects.toMatchObject({ status: 304 });
    expect((await octokit.rest.rateLimit.get()).data.resources.core.used).toBe(1);
  });

  it('hands the throttling plugin the reset of a spent search window, and the retry after it succeeds', async () => {
    const limited: Limited[] = [];
    const octokit = client(proxy, 'throttle', (l) => {
      limited.push(l);
      return l.retryCount === 0;
    });
    lag = 55_000;
    await octokit.rest.search.issuesAndPullRequests({ q: 'widget' });
    lag = 0;
    for (let i = 1; i < 30; i++) await octokit.rest.search.issuesAndPullRequests({ q: 'widget' });
    const { data: before } = await octokit.rest.rateLimit.get();
    expect(before.resources.search.remaining).toBe(0);

    const refusedAt = Date.now();
    const retried = await octokit.rest.search.issuesAndPullRequests({ q: 'widget' });
    expect(retried.status).toBe(200);
    expect(limited).toHaveLength(1);
    // "Add one second so we retry after the reset": the plugin's wait, from X-RateLimit-Reset.
    const expected = Math.ceil((before.resources.search.reset * 1000 - refusedAt) / 1000) + 1;
    expect(limited[0]!.retryAfter).toBeGreaterThanOrEqual(expected - 1);
    expect(limited[0]!.retryAfter).toBeLessThanOrEqual(expected);
    expect(limited[0]!.retryAfter).toBeGreaterThan(0);
    expect(Date.now() - limited[0]!.at).toBeGreaterThanOrEqual(limited[0]!.retryAfter * 1000 - 50);
    expect((await octokit.rest.rateLimit.get()).data.resources.search.used).toBe(1);
  }, 20_000);
});
