/**
 * The client's bookkeeping of exchanges: `reuse` (a GET the run already had answered with a 2xx is not
 * sent again: controls cost no rate-limit window) and `unjudged` (requests that prepare or put back
 * what a check judges stay in the transcript but out of the check's exchanges).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceProfile } from '../reference/profile.js';
import { startReference, type RunningReference } from '../reference/server.js';
import { vendorNames } from '../spec/vendor.js';
import { Client } from '../core/client.js';
import type { RunResult } from '../core/model.js';

let ref: RunningReference;
let client: Client;
beforeAll(async () => {
  ref = await startReference({ port: 0 });
  client = new Client({ profile: referenceProfile(ref), names: vendorNames('service'), timeoutMs: 5000, maxRequests: 100 }, []);
});
afterAll(() => ref?.close());

describe('a request marked reuse', () => {
  it('gets the earlier 2xx answer of the same GET, by the same token, without a request', async () => {
    const first = await client.send({ path: '/search/issues?q=widget&per_page=1' });
    const sent = client.count;
    const again = await client.send({ path: '/search/issues?q=widget&per_page=1', reuse: true });
    expect(client.count).toBe(sent);
    expect(again.exchange).toBe(first.exchange);
    expect(client.take()).toEqual([first.exchange, first.exchange]);
  });

  it('is sent when the token, the headers or the URL differ, or without reuse', async () => {
    const sent = client.count;
    await client.send({ path: '/search/issues?q=widget&per_page=1', as: 'classic_public', reuse: true });
    await client.send({ path: '/search/issues?q=widget&per_page=1', headers: { accept: 'application/vnd.service.text-match+json' }, reuse: true });
    await client.send({ path: '/search/issues?q=widget&per_page=2', reuse: true });
    await client.send({ path: '/search/issues?q=widget&per_page=1' });
    expect(client.count).toBe(sent + 4);
  });

  it('does not reuse a refusal', async () => {
    await client.send({ path: '/search/issues' });
    const sent = client.count;
    const again = await client.send({ path: '/search/issues', reuse: true });
    expect(again.status).toBe(422);
    expect(client.count).toBe(sent + 1);
  });
});

describe('requests run through unjudged', () => {
  it('are left out of the exchanges taken, while those before and after are kept', async () => {
    client.take();
    const before = await client.send({ path: '/rate_limit' });
    const setup = await client.unjudged(() => client.send({ path: '/notifications?per_page=1' }));
    const after = await client.send({ path: '/rate_limit' });
    expect(client.transcript.map((x) => x.id)).toContain(setup.exchange);
    expect(client.take()).toEqual([before.exchange, after.exchange]);
  });

  it('are left out when the setup throws, and an earlier exchange it reuses stays', async () => {
    client.take();
    const first = await client.send({ path: '/notifications?per_page=2' });
    await expect(client.unjudged(async () => {
      await client.send({ path: '/notifications?per_page=2', reuse: true });
      await client.send({ path: '/rate_limit' });
      throw new Error('skipped');
    })).rejects.toThrow('skipped');
    expect(client.take()).toEqual([first.exchange]);
  });
});

describe('the run\'s result, redacted at the end', () => {
  it('masks a secret learned late where an earlier exchange held it, in any form, and leaves the other exchanges as they were', async () => {
    const late = 'late-learned-secret-7f3a';
    const lateClient = new Client({ profile: referenceProfile(ref), names: vendorNames('service'), timeoutMs: 5000, maxRequests: 100 }, []);
    const plain = await lateClient.send({ path: '/search/issues?q=widget' });
    const echoed = await lateClient.send({ path: `/search/issues?q=${late}` });
    const encoded = await lateClient.send({ path: `/search/issues?q=${Buffer.from(late).toString('base64')}` });
    // Sent as a credential, the value becomes a known secret only now.
    await lateClient.send({ path: '/rate_limit', as: { raw: `token ${late}` } });
    const result = lateClient.redactResult({ transcript: lateClient.transcript } as unknown as RunResult);
    const byId = (id: number) => result.transcript.find((x) => x.id === id)!;
    const text = JSON.stringify(result.transcript);
    expect(text).not.toContain(late);
    expect(text).not.toContain(Buffer.from(late).toString('base64'));
    expect(byId(echoed.exchange).request.url).toContain('[REDACTED]');
    expect(byId(encoded.exchange).request.url).toContain('[REDACTED]');
    expect(byId(plain.exchange)).toBe(lateClient.transcript.find((x) => x.id === plain.exchange));
  });

  it('finds a late secret that JSON would write escaped (a quote, a backslash) where an earlier exchange held it', async () => {
    const late = 'late"quoted\\secret-7f3a';
    const lateClient = new Client({ profile: referenceProfile(ref), names: vendorNames('service'), timeoutMs: 5000, maxRequests: 100 }, []);
    const echoed = await lateClient.send({ path: `/search/issues?q=${late}` });
    await lateClient.send({ path: '/rate_limit', as: { raw: `token ${late}` } });
    const result = lateClient.redactResult({ transcript: lateClient.transcript } as unknown as RunResult);
    const url = result.transcript.find((x) => x.id === echoed.exchange)!.request.url;
    expect(lateClient.transcript.find((x) => x.id === echoed.exchange)!.request.url).toContain(late);
    expect(url).not.toContain(late);
    expect(url).toContain('[REDACTED]');
  });
});
