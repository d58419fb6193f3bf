/** The match key: what changes an answer changes the key, what does not leaves it alone. */
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../proxy/interaction.js';
import { differences, equivalentKeys, matchKey, matchView, routeOf } from '../../proxy/match.js';

const base: RecordedRequest = {
  method: 'GET', path: '/search/issues', query: { q: ['widget'], per_page: ['2'] },
  headers: { accept: 'application/vnd.service+json', authorization: 'Bearer token#1', 'x-service-api-version': '2022-11-28' },
};
const key = (r: RecordedRequest) => matchKey(matchView(r));
const write = (json: unknown): RecordedRequest => ({ ...base, method: 'PUT', path: '/repos/acme/import-target/import', query: {}, body: { encoding: 'json', json } });

describe('match key', () => {
  it('ignores query order, header case of the vendor word, the auth scheme, and headers that do not change the answer', () => {
    const same: RecordedRequest[] = [
      { ...base, query: { per_page: ['2'], q: ['widget'] } },
      { ...base, headers: { accept: 'application/vnd.github+json', authorization: 'token token#1', 'x-github-api-version': '2022-11-28' } },
      { ...base, headers: { ...base.headers, 'user-agent': 'octokit', 'if-none-match': '"abc"' } },
      { ...base, path: '/search/issues/' },
    ];
    for (const r of same) expect(key(r), JSON.stringify(r)).toBe(key(base));
  });

  it('changes with the method, path, a query value, the media type, the version, the caller', () => {
    const other: RecordedRequest[] = [
      { ...base, method: 'HEAD' },
      { ...base, path: '/search/code' },
      { ...base, query: { ...base.query, q: ['gadget'] } },
      { ...base, headers: { ...base.headers, accept: 'application/vnd.service.text-match+json' } },
      { ...base, headers: { ...base.headers, 'x-service-api-version': '2026-03-10' } },
      { ...base, headers: { ...base.headers, authorization: 'Bearer token#2' } },
      { ...base, headers: { accept: base.headers.accept!, 'x-service-api-version': '2022-11-28' } },
    ];
    expect(new Set([base, ...other].map(key)).size).toBe(other.length + 1);
  });

  it('names the keys of the equivalent media types: the recommended one, its .v3 name and application/json, any vendor word', () => {
    const as = (accept: string) => key({ ...base, headers: { ...base.headers, accept } });
    const viewAs = (accept: string) => matchView({ ...base, headers: { ...base.headers, accept } });
    const json = ['application/vnd.service+json', 'application/vnd.service.v3+json', 'application/json'];
    const keys = ['application/vnd.github+json', 'application/vnd.github.v3+json', 'application/json'].map(as);
    expect(new Set(keys).size).toBe(3);
    json.forEach((accept, i) => expect(equivalentKeys(viewAs(accept)).sort(), accept).toEqual(keys.filter((_, j) => j !== i).sort()));
    const textMatch = [as('application/vnd.service.text-match+json'), as('application/vnd.service.v3.text-match+json')];
    expect(equivalentKeys(viewAs('application/vnd.github.text-match+json'))).toEqual([textMatch[1]]);
    // A media type with no equivalent has none; nor has a request without Accept.
    expect(equivalentKeys(viewAs('application/vnd.service.raw+json'))).toEqual([]);
    expect(equivalentKeys(matchView({ ...base, headers: {} }))).toEqual([]);
  });

  it('keys a write by its body, whatever the order of its fields; a read ignores a body', () => {
    expect(key(write({ a: 1, b: [1, 2] }))).toBe(key(write({ b: [1, 2], a: 1 })));
    expect(key(write({ a: 1 }))).not.toBe(key(write({ a: 2 })));
    expect(key({ ...base, body: { encoding: 'text', text: 'x' } })).toBe(key(base));
  });

  it('groups near misses by route template and names each difference', () => {
    expect(routeOf({ method: 'get', path: '/repos/a/b/import/' })).toBe('GET /repos/{owner}/{repo}/import');
    expect(routeOf({ method: 'GET', path: '/unknown' })).toBe('GET /unknown');
    const sent = matchView({ ...write({ vcs_url: 'x', extra: true }), headers: {} });
    expect(differences(matchView(write({ vcs_url: 'y' })), sent)).toEqual([
      { field: 'header accept', recorded: 'application/vnd.*+json' },
      { field: 'header api-version', recorded: '2022-11-28' },
      { field: 'identity', recorded: 'token#1', sent: 'anonymous' },
      { field: 'body/extra', sent: true },
      { field: 'body/vcs_url', recorded: 'y', sent: 'x' },
    ]);
  });
});
