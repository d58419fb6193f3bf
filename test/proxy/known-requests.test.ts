/**
 * Replay reuses the keying of a bodiless request it has seen (proxy/known-requests.ts): a repeated
 * request is answered from the fixture the full computation picks, on every bodiless request of
 * the bundled cassette, and only keyings that redaction would repeat are kept.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { Cassette } from '../../proxy/cassette.js';
import { freshIdentityTable, Identities } from '../../proxy/identities.js';
import { ExchangeRedactor } from '../../proxy/redact.js';
import { cassetteKeys, createProxy, FIXTURE_HEADER, SESSION_HEADER, type RunningProxy } from '../../proxy/server.js';
import { BUNDLED_CASSETTE } from '../../scripts/record-fixtures.js';

const proxies: RunningProxy[] = [];
afterAll(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

describe('known requests', () => {
  it('answer a repeated bodiless request of the bundled cassette as a request never seen', async () => {
    const cassette = Cassette.open(BUNDLED_CASSETTE, { ...cassetteKeys(), writable: false });
    // Rate limits off: a refusal would hide which fixture answered.
    const proxy = await createProxy({ mode: 'replay', fixtures: BUNDLED_CASSETTE, port: 0, rateLimits: false });
    proxies.push(proxy);
    const requests = cassette.entries().map((e) => e.interaction.request).filter((r) => !r.body);
    expect(requests.length).toBeGreaterThan(500);
    let i = 0;
    for (const r of requests) {
      const query = new URLSearchParams(Object.entries(r.query).flatMap(([k, vs]) => vs.map((v) => [k, v]))).toString();
      const path = `${r.path}${query ? `?${query}` : ''}`;
      const send = (headers: Record<string, string>) => request(`${proxy.url}${path}`, { method: r.method as 'GET', headers })
        .then(async (res) => {
          await res.body.dump();
          return `${res.statusCode} ${String(res.headers[FIXTURE_HEADER])}`;
        });
      i++;
      // Sent three times alike (the third is a known request: kept from the second), and three times with a header no key reads that makes each new.
      const repeated: string[] = [];
      const fresh: string[] = [];
      for (let n = 0; n < 3; n++) repeated.push(await send({ ...r.headers, [SESSION_HEADER]: `same-${i}` }));
      for (let n = 0; n < 3; n++) fresh.push(await send({ ...r.headers, [SESSION_HEADER]: `new-${i}`, 'x-nonce': String(n) }));
      expect(repeated, `${r.method} ${path}`).toEqual(fresh);
    }
    expect(proxy.stats.unmatched).toBe(0);
  }, 120_000);

  it('are kept only when every placeholder handed out lasts: a caller the table does not know is numbered anew once forgotten', () => {
    const table = freshIdentityTable();
    new Identities(table, () => {}).placeholder('ghp_recorded');
    const redactor = new ExchangeRedactor(new Identities(table), { headers: [], fields: [] });
    const live = (authorization?: string, query = '') => redactor.request({
      method: 'GET', path: '/user', query: new URLSearchParams(query), headers: authorization ? { authorization } : {}, body: Buffer.alloc(0),
    });
    expect(live().repeatable).toBe(true);
    expect(live('token ghp_recorded').repeatable).toBe(true);
    expect(live('token ghp_stranger').repeatable).toBe(false);
    expect(live(undefined, 'access_token=ghp_stranger').repeatable).toBe(false);
    expect(live(undefined, 'access_token=ghp_recorded').repeatable).toBe(true);
  });
});
