/**
 * Claim: a new credential costs the replaying proxy next to nothing, and never stalls other
 * requests. Requests each with a token never seen before are timed against requests that all
 * send one token, interleaved; then a normal request's latency is sampled while 20 senders of
 * new tokens run, over a cassette of this version (HMAC) and one recorded before it (scrypt for
 * every secret, on the thread pool).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'undici';
import { META_FILE } from '../proxy/cassette.js';
import { createProxy, PROXY_HEADER, type RunningProxy } from '../proxy/server.js';
import { ACCEPT, searchPath, writeCassette } from './cassettes.js';
import { interleave, median, row, timed, type Row } from './harness.js';

export interface IdentitiesOptions {
  /** Folders for the current and the older cassette, created empty by the caller. */
  dirs: { current: string; legacy: string };
  /** Requests per round and variant. */
  requests: number;
  rounds: number;
  /** New-token senders running while a normal request's latency is sampled, and requests each sends. */
  senders: number;
  perSender: { current: number; legacy: number };
}

export interface IdentitiesResult {
  rows: Row[];
  claims: string[];
}

const CONCURRENCY = 4;
/** A route with no fixture: every request is redacted and keyed, then answered 404 at once. */
const UNRECORDED = '/bench/identities';

export async function identitiesBench(o: IdentitiesOptions): Promise<IdentitiesResult> {
  writeCassette(o.dirs.current, 10);
  writeCassette(o.dirs.legacy, 10);
  const meta = JSON.parse(readFileSync(join(o.dirs.legacy, META_FILE), 'utf8')) as { digest?: string };
  delete meta.digest;
  writeFileSync(join(o.dirs.legacy, META_FILE), `${JSON.stringify(meta, null, 2)}\n`);

  const proxies: RunningProxy[] = [];
  const pools: Pool[] = [];
  const start = async (fixtures: string) => {
    const proxy = await createProxy({ mode: 'replay', fixtures, port: 0, rateLimits: false, conditional: false });
    proxies.push(proxy);
    const pool = new Pool(proxy.origin, { connections: CONCURRENCY + o.senders });
    pools.push(pool);
    return pool;
  };
  try {
    const current = await start(o.dirs.current);
    const legacy = await start(o.dirs.legacy);
    let fresh = 0;
    const tokens = (distinct: boolean) => Array.from({ length: o.requests }, () => (distinct ? `ghp_bench${fresh++}` : 'ghp_benchsame'));
    const [same, distinct] = await interleave([
      { name: 'one token', run: () => timed(() => drive(current, tokens(false))) },
      { name: 'a new token each', run: () => timed(() => drive(current, tokens(true))) },
    ], o.rounds);
    const rows = [row('credentials', 'one token', same!, o.requests), row('credentials', 'a new token each', distinct!, o.requests)];
    const share = (o.requests / median(distinct!)) / (o.requests / median(same!));

    const underLoad = async (pool: Pool, perSender: number) => {
      const senders = Array.from({ length: o.senders }, () => drive(pool, Array.from({ length: perSender }, () => `ghp_flood${fresh++}`), 1));
      let running = true;
      const all = Promise.all(senders).finally(() => { running = false; });
      const latencies: number[] = [];
      let k = 0;
      while (running) latencies.push(await timed(() => replayHit(pool, k++)));
      await all;
      return latencies;
    };
    const loaded = await underLoad(current, o.perSender.current);
    const loadedLegacy = await underLoad(legacy, o.perSender.legacy);
    rows.push(row('normal request under a new-token flood', 'hmac-sha256 cassette', loaded, 1), row('normal request under a new-token flood', 'older (scrypt) cassette', loadedLegacy, 1));
    return {
      rows,
      claims: [
        `new tokens: ${(share * 100).toFixed(0)}% of the one-token request rate (target at least 80%)`,
        `a normal request while ${o.senders} senders of new tokens run: median ${median(loaded).toFixed(1)} ms over ${loaded.length} (target under 20 ms); over an older scrypt cassette ${median(loadedLegacy).toFixed(1)} ms over ${loadedLegacy.length}`,
      ],
    };
  } finally {
    await Promise.allSettled(pools.map((p) => p.close()));
    await Promise.allSettled(proxies.map((p) => p.close()));
  }
}

/** A recorded search, answered from its fixture. */
async function replayHit(pool: Pool, k: number): Promise<void> {
  const path = searchPath(k % 10);
  const res = await pool.request({ method: 'GET', path, headers: { accept: ACCEPT } });
  await res.body.arrayBuffer();
  if (res.headers[PROXY_HEADER] !== 'replayed') throw new Error(`GET ${path}: expected a replayed answer, got ${res.statusCode} ${String(res.headers[PROXY_HEADER])}`);
}

/** Sends a GET of the unrecorded route per token (`concurrency` in flight); a wrong answer stops the bench rather than timing it. */
async function drive(pool: Pool, tokens: readonly string[], concurrency = CONCURRENCY): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tokens.length) {
      const res = await pool.request({ method: 'GET', path: UNRECORDED, headers: { accept: ACCEPT, authorization: `Bearer ${tokens[next++]!}` } });
      await res.body.arrayBuffer();
      if (res.headers[PROXY_HEADER] !== 'unmatched') throw new Error(`GET ${UNRECORDED}: expected unmatched, got ${res.statusCode} ${String(res.headers[PROXY_HEADER])}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}
