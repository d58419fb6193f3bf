/**
 * Precision: checks pass a server that differs from the reference only where the spec is silent.
 * A front in front of the reference lists open alerts when no state is asked for (the listing's
 * default state is not shown) and capitalizes the permission names of X-Accepted-Service-Permissions
 * (the spec writes "Contents" in prose, and shows no spelling for the header).
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceProfile } from '../../reference/profile.js';
import { startReference, type RunningReference } from '../../reference/server.js';
import { listen } from '../../core/listen.js';
import { runConformance } from '../../src/runner.js';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

function front(ref: RunningReference): Server {
  return createServer(async (req, res) => {
    const url = new URL(req.url!, ref.origin);
    if (url.pathname.endsWith('/code-scanning/alerts') && !url.searchParams.has('state')) url.searchParams.set('state', 'open');
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k, v]) => !HOP_BY_HOP.has(k) && typeof v === 'string')) as Record<string, string>;
    const upstream = await fetch(url, { method: req.method!, headers, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) });
    const out: Record<string, string> = {};
    upstream.headers.forEach((v, k) => { if (!HOP_BY_HOP.has(k)) out[k] = v; });
    const accepted = 'x-accepted-service-permissions';
    if (out[accepted]) out[accepted] = out[accepted].replace(/(^|[,;]\s*)([a-z])/g, (_m, sep: string, c: string) => sep + c.toUpperCase());
    res.writeHead(upstream.status, out);
    res.end(Buffer.from(await upstream.arrayBuffer()));
  });
}

describe('checks do not fail a server that differs where the spec says nothing', () => {
  let ref: RunningReference;
  let server: Server;
  let baseUrl: string;

  beforeAll(async () => {
    ref = await startReference({ port: 0 });
    server = front(ref);
    baseUrl = (await listen(server, 0, '127.0.0.1')).origin;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
    await ref?.close();
  });

  it('default alert state open, capitalized permission names', async () => {
    const only = ['alerts.sort-updated', 'permissions.code-scanning-header', 'permissions.code-scanning-update-header', 'permissions.imports-header'];
    const r = await runConformance({ profile: { ...referenceProfile(ref), base_url: baseUrl }, allowWrites: true, only });
    expect(r.checks.map((c) => [c.id, c.outcome, c.message])).toEqual(only.map((id) => [id, 'pass', expect.anything()]));
  }, 60_000);
});
