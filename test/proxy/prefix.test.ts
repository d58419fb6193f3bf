/**
 * The proxy serves under the prefix it records from: with no `prefix`, a recording serves under the
 * target's path and stores it in cassette.json, and a replay serves under the stored one, so a
 * profile naming `/api/v3` reaches the upstream's `/api/v3` once, never twice.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxy, PROXY_HEADER } from '../../proxy/server.js';
import { startReference, type RunningReference } from '../../reference/server.js';
import { call } from '../helpers/reference.js';
import { serve, stop } from '../helpers/serve.js';
import { tempCassette } from './helpers.js';

describe('proxy prefix', () => {
  let reference: RunningReference;
  const fixtures = tempCassette();
  beforeAll(async () => {
    reference = await startReference({ port: 0, prefix: '/api/v3' });
  });
  afterAll(async () => {
    await reference.close();
  });

  it('records under the target path, and replays under the prefix cassette.json stores', async () => {
    const recorder = await createProxy({ mode: 'record', target: reference.url, fixtures, port: 0 });
    try {
      expect(recorder.url).toBe(`${recorder.origin}/api/v3`);
      const r = await call(recorder.origin, '/api/v3/events?per_page=1');
      expect([r.status, r.headers[PROXY_HEADER]]).toEqual([200, 'recorded']);
      expect((await call(recorder.origin, '/api/v3/api/v3/events?per_page=1')).status).toBe(404);
    } finally {
      await recorder.close();
    }
    expect(JSON.parse(readFileSync(join(fixtures, 'cassette.json'), 'utf8'))).toMatchObject({ prefix: '/api/v3' });

    const replay = await createProxy({ mode: 'replay', fixtures, port: 0 });
    try {
      expect(replay.url).toBe(`${replay.origin}/api/v3`);
      expect((await call(replay.origin, '/api/v3/events?per_page=1')).headers[PROXY_HEADER]).toBe('replayed');
    } finally {
      await replay.close();
    }
  });

  it('an explicit prefix wins, the root included', async () => {
    const atRoot = await createProxy({ mode: 'replay', fixtures, port: 0, prefix: '' });
    try {
      expect(atRoot.url).toBe(atRoot.origin);
      expect((await call(atRoot.origin, '/events?per_page=1')).headers[PROXY_HEADER]).toBe('replayed');
    } finally {
      await atRoot.close();
    }
  });

  it('from the command line: no --prefix serves under the target path, --prefix / at the root', async () => {
    for (const [extra, path] of [[[], '/api/v3'], [['--prefix', '/'], '']] as const) {
      const proxy = await serve(['proxy', '--passthrough', '--target', reference.url, '--port', '0', ...extra]);
      try {
        const origin = new URL(proxy.url).origin;
        expect(proxy.url).toBe(`${origin}${path}`);
        expect((await call(origin, `${path}/events?per_page=1`)).headers[PROXY_HEADER]).toBe('forwarded');
      } finally {
        await stop(proxy.child);
      }
    }
  });
});
