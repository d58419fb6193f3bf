/**
 * Claim: replay finds a fixture by its key, not by scanning. Two replaying proxies, one over a
 * small and one over a large synthetic cassette, answer the same number of matched requests,
 * interleaved; their time per request should be about equal. Misses are timed too: a miss on the
 * route every fixture is recorded on compares the request with each key there (the near-miss
 * report), a miss on a route with no fixtures compares it with none.
 */
import { Pool } from 'undici';
import { createProxy, PROXY_HEADER, type RunningProxy } from '../proxy/server.js';
import { ACCEPT, searchQuery, writeCassette } from './cassettes.js';
import { count, interleave, ratio, row, timed, type Row } from './harness.js';

export interface LookupOptions {
  sizes: [small: number, large: number];
  /** Folder per size, created empty by the caller. */
  dirs: [string, string];
  /** Matched requests per round and size. */
  hits: number;
  /** Misses per round on the route every fixture is on (each compares with every key there), and on an empty route. */
  misses: { crowded: number; empty: number };
  /** Interleaved rounds of the hits, and of each kind of miss. */
  rounds: { hits: number; misses: number };
}

export interface LookupResult {
  rows: Row[];
  claims: string[];
}

const CONCURRENCY = 4;

export async function lookupBench(o: LookupOptions): Promise<LookupResult> {
  o.dirs.forEach((dir, i) => writeCassette(dir, o.sizes[i]!));
  const proxies: RunningProxy[] = [];
  const pools: Pool[] = [];
  try {
    for (const fixtures of o.dirs) {
      // Synthesized rate limits would refuse most of these searches; validators are not what is measured.
      const proxy = await createProxy({ mode: 'replay', fixtures, port: 0, rateLimits: false, conditional: false });
      proxies.push(proxy);
      pools.push(new Pool(proxy.origin, { connections: CONCURRENCY }));
    }
    const names = o.sizes.map((s) => `${count(s)} fixtures`);
    // Distinct fixtures spread over the whole cassette (7919 is prime, so the walk visits many keys).
    const hitPaths = (size: number) => Array.from({ length: o.hits }, (_, k) => `/search/issues?q=${searchQuery((k * 7919) % size)}`);
    const hit = o.sizes.map((size, i) => ({ name: names[i]!, run: () => timed(() => drive(pools[i]!, hitPaths(size), 200, 'replayed')) }));
    const crowded = Array.from({ length: o.misses.crowded }, (_, k) => `/search/issues?q=absent-${k}`);
    const empty = Array.from({ length: o.misses.empty }, (_, k) => `/notifications?bench=${k}`);
    const missOn = (paths: string[]) => o.sizes.map((_, i) => ({ name: names[i]!, run: () => timed(() => drive(pools[i]!, paths, 404, 'unmatched')) }));

    const hitSamples = await interleave(hit, o.rounds.hits);
    const crowdedSamples = await interleave(missOn(crowded), o.rounds.misses);
    const emptySamples = await interleave(missOn(empty), o.rounds.misses);
    const hits = hitSamples.map((s, i) => row('replay hit', names[i]!, s, o.hits));
    const crowdedRows = crowdedSamples.map((s, i) => row('miss, crowded route', names[i]!, s, o.misses.crowded));
    const emptyRows = emptySamples.map((s, i) => row('miss, empty route', names[i]!, s, o.misses.empty));
    const [small, large] = [names[0]!, names[1]!];
    const scale = `${Math.round(o.sizes[1] / o.sizes[0])}x`;
    return {
      rows: [...hits, ...crowdedRows, ...emptyRows],
      claims: [
        `lookup: ${large} vs ${small} = ${ratio(hits[1]!, hits[0]!)} time per matched request (a scan would be ~${scale})`,
        `miss on the route all fixtures share: ${large} vs ${small} = ${ratio(crowdedRows[1]!, crowdedRows[0]!)} time per request (the near-miss report compares every key on the route; ~${scale} if that dominates)`,
        `miss on a route with no fixtures: ${large} vs ${small} = ${ratio(emptyRows[1]!, emptyRows[0]!)} time per request (expected ~1x)`,
      ],
    };
  } finally {
    await Promise.allSettled(pools.map((p) => p.close()));
    await Promise.allSettled(proxies.map((p) => p.close()));
  }
}

/** Sends every path (GET, `CONCURRENCY` in flight), reading each body; a wrong answer stops the bench rather than timing it. */
async function drive(pool: Pool, paths: readonly string[], status: number, how: string): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const path = paths[next++]!;
      const res = await pool.request({ method: 'GET', path, headers: { accept: ACCEPT } });
      await res.body.arrayBuffer();
      if (res.statusCode !== status || res.headers[PROXY_HEADER] !== how) {
        throw new Error(`GET ${path}: expected ${status} ${how}, got ${res.statusCode} ${String(res.headers[PROXY_HEADER])}`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}
