/**
 * Pagination stays home: a target whose Link header points at another port, another host, another
 * prefix or a URL with userinfo fails the checks that follow it, and nothing is sent there (no
 * token reaches another listener). A client path that would move the authority is refused too.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vendorNames } from '../../spec/vendor.js';
import { Client } from '../../core/client.js';
import { Journal } from '../../core/journal.js';
import { listen } from '../../core/listen.js';
import type { Profile } from '../../core/profile.js';
import { runConformance } from '../../src/runner.js';
import { CheckContext } from '../../core/suite.js';
import { linkPath } from '../../suites/links.js';
import { startAlteredReference, type AlteredReference } from '../helpers/altered-reference.js';

/** Checks that follow a listing's rel="next" (and rel="prev") links. */
const FOLLOWERS = ['alerts.cursors', 'alerts.cursor-links', 'alerts.org-cursors'];
const MARK = 'hostile-link';

let other: { origin: string; seen: IncomingHttpHeaders[]; close: () => Promise<void> };
beforeAll(async () => {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  const { origin } = await listen(server, 0);
  other = { origin, seen, close: () => new Promise((resolve) => server.close(() => resolve())) };
});
afterAll(() => other.close());

/** Where a hostile Link may point, given the front's origin and the API root's path. */
const ELSEWHERE: Record<string, (origin: string, prefix: string) => string> = {
  'another port': () => other.origin,
  'another host (same port, named otherwise)': (origin) => origin.replace('127.0.0.1', 'localhost'),
  'another prefix on the same origin': (origin) => `${origin}/elsewhere`,
  'userinfo on the same origin': (origin, prefix) => `${origin.replace('://', '://intruder:secret@')}${prefix}`,
};

describe.each(Object.entries(ELSEWHERE))('a Link header pointing to %s', (_, where) => {
  let front: AlteredReference;
  /** Requests the front saw for a hostile link: they must not exist. */
  const followed: string[] = [];
  let outcome: Map<string, { outcome: string; message: string }>;
  beforeAll(async () => {
    front = await startAlteredReference({
      instead: (req) => {
        if (req.url?.includes(MARK)) followed.push(`${req.headers.host} ${req.url}`);
        return undefined;
      },
      change: (req, answer) => {
        const next = /<([^>]+)>;\s*rel="(next|prev)"/.exec(answer.headers.link ?? '');
        if (!req.url?.includes('/code-scanning/alerts') || !next) return answer;
        const url = new URL(next[1]!);
        const prefix = new URL(front.url).pathname.replace(/\/$/, '');
        const moved = `${where(front.origin, prefix)}${url.pathname.slice(prefix.length)}${url.search}&${MARK}=1`;
        return { ...answer, headers: { ...answer.headers, link: answer.headers.link!.replaceAll(url.href, moved) } };
      },
    }, { prefix: '/api/v3' });
    const result = await runConformance({ profile: front.profile, only: FOLLOWERS, allowWrites: false, maxRequests: 300 });
    outcome = new Map(result.checks.map((c) => [c.id, c]));
  }, 120_000);
  afterAll(() => front.close());

  it('fails every check that follows it, saying where it points', () => {
    for (const id of FOLLOWERS) {
      expect(outcome.get(id)?.outcome, id).toBe('fail');
      expect(outcome.get(id)?.message, id).toMatch(/Link points outside the API: \S+hostile-link=1/);
    }
  });

  it('sends nothing there: neither the other listener nor the front is asked for it', () => {
    expect(other.seen).toEqual([]);
    expect(followed).toEqual([]);
  });
});

describe('a request path that does not start with /', () => {
  it('is refused before anything is sent, so it cannot move the token to another authority', async () => {
    const target = other.origin.replace(/:\d+$/, ':9');
    const client = new Client({ profile: { base_url: target, tokens: { classic: { value: 'ghp_secretsecretsecret' } } }, names: vendorNames('service'), timeoutMs: 2000, maxRequests: 5 }, []);
    const authority = other.origin.slice('http://'.length);
    await expect(client.send({ path: `@${authority}/x` })).rejects.toThrow(/request path "@.*" leaves the API root/);
    expect(client.count).toBe(0);
    expect(other.seen).toEqual([]);
  });
});

describe('a Link URL turned into a path', () => {
  const profile: Profile = { base_url: 'http://api.example:8080', prefix: '/api/v3' };
  const context = () => new CheckContext({ id: 'x', title: 'x', requirement: 'alerts.cursors', run: async () => {} },
    new Client({ profile, names: vendorNames('service'), timeoutMs: 1000, maxRequests: 1 }, []), profile, vendorNames('service'), new Journal());

  it.each([
    ['http://api.example:8080/api/v3/repos/a/b/code-scanning/alerts?after=x', '/repos/a/b/code-scanning/alerts?after=x'],
    ['HTTP://API.EXAMPLE:8080/api/v3/events?page=2', '/events?page=2'],
    ['/api/v3/events?page=3', '/events?page=3'],
  ])('%s stays on the API: %s', (url, path) => {
    const t = context();
    expect(linkPath(t, url)).toBe(path);
    expect(t.failures).toEqual([]);
  });

  it.each([
    'http://api.example:8081/api/v3/events', 'https://api.example:8080/api/v3/events', 'http://api.example.evil:8080/api/v3/events',
    'http://x@api.example:8080/api/v3/events', 'http://api.example:8080/api/v30/events', 'http://api.example:8080/api/v3/../../events',
    '//evil.example/api/v3/events', 'javascript:alert(1)', 'http://[not a url',
  ])('%s leaves it: the check fails and no path is given', (url) => {
    const t = context();
    expect(linkPath(t, url)).toBeUndefined();
    expect(t.failures).toEqual([{ message: `Link points outside the API: ${url}` }]);
  });
});
