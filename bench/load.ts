/**
 * The load generator (autocannon, in this process): a fixed number of connections for a fixed
 * time, cycling through the given paths, every answer checked against the bytes expected for it.
 */
import autocannon from 'autocannon';

export interface LoadResult {
  /** Answers per second, averaged over the run. */
  rps: number;
  p50Ms: number;
  p99Ms: number;
  answers: number;
  /** Answers that were not a 2xx, or not one of the expected bodies, plus connection errors. */
  wrong: number;
}

export interface LoadOptions {
  /** Origin; the paths are appended. */
  url: string;
  paths: readonly string[];
  headers: Record<string, string>;
  /** The bodies a right answer may have (one per path); absent, only the status is checked. */
  bodies?: ReadonlySet<string>;
  connections: number;
  durationS?: number;
  /** Stop after this many requests instead of after `durationS`. */
  amount?: number;
}

export async function load(o: LoadOptions): Promise<LoadResult> {
  let next = 0;
  const result = await autocannon({
    url: o.url,
    // autocannon refuses more connections than requests.
    connections: o.amount ? Math.min(o.connections, o.amount) : o.connections,
    ...(o.amount ? { amount: o.amount } : { duration: o.durationS ?? 5 }),
    headers: o.headers,
    requests: [{ setupRequest: (req) => ({ ...req, path: o.paths[next++ % o.paths.length]! }) }],
    ...(o.bodies ? { verifyBody: (body: unknown) => o.bodies!.has(String(body)) } : {}),
  });
  return {
    rps: result.requests.total / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    answers: result.requests.total,
    wrong: result.non2xx + result.mismatches + result.errors + result.timeouts,
  };
}
