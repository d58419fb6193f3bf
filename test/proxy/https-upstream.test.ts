/** An https upstream, as the platform's own API is (nock stands in for it): recorded through TLS's module, then replayed. */
import nock from 'nock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxy, PROXY_HEADER } from '../../proxy/server.js';
import { call } from '../helpers/reference.js';
import { tempCassette } from './helpers.js';

// Test files share a worker: one that ran before this may have restored nock (turned it off).
beforeAll(() => {
  if (!nock.isActive()) nock.activate();
});

const UPSTREAM = 'https://api.upstream.test';

describe('an https upstream', () => {
  afterAll(() => nock.restore());

  it('is recorded, then replayed with the upstream gone', async () => {
    const fixtures = tempCassette();
    const scope = nock(UPSTREAM).get('/api/users/mona').reply(200, { login: 'mona', url: `${UPSTREAM}/api/users/mona` }, { 'content-type': 'application/json' });
    const recorder = await createProxy({ mode: 'record', target: `${UPSTREAM}/api`, fixtures, port: 0 });
    try {
      const recorded = await call(recorder.url, '/users/mona');
      expect(recorded.status).toBe(200);
      expect(recorded.body.login).toBe('mona');
      expect(scope.isDone()).toBe(true);
    } finally {
      await recorder.close();
    }
    nock.cleanAll();
    const replay = await createProxy({ mode: 'replay', fixtures, port: 0 });
    try {
      const replayed = await call(replay.url, '/users/mona');
      expect(replayed.status).toBe(200);
      expect(replayed.headers[PROXY_HEADER]).toBe('replayed');
      // The upstream's URLs in the body point at the proxy that replays them.
      expect(replayed.body.url).toBe(`${replay.url}/users/mona`);
    } finally {
      await replay.close();
    }
  });
});
