/**
 * Claim: replay costs little beyond serving bytes. The replaying proxy (the real CLI, in its own
 * process), a bare node:http server answering the very bytes the proxy answers, and talkback
 * replaying the same exchanges are loaded alike (autocannon, fixed connections and time, every
 * answer checked), in rounds of alternating order; medians per variant, and each comparison with
 * the bare server the median of its per-round ratios (or differences). With many fixtures the
 * requests cycle through all of them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { writeAnswers, type Captured } from './answers.js';
import { ACCEPT, searchPath, writeCassette } from './cassettes.js';
import { count, median } from './harness.js';
import { load, type LoadResult } from './load.js';
import { spawnServer, type Child } from './processes.js';

export const CLI = new URL('../../bin/conformance.js', import.meta.url).pathname;
const SERVE = new URL('./serve.js', import.meta.url).pathname;
const HEADERS = { accept: ACCEPT };
/** Per-connection headers the bare server must not copy from a captured answer. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding'];

export interface ThroughputOptions {
  temp: string;
  /** Fixtures of the large cassette (the small one has one). */
  large: number;
  /** Filler characters per answer for the body-size comparison (proxy vs bare, one fixture each). */
  paddings: readonly number[];
  connections: number;
  durationS: number;
  /** Per run of the body-size comparison (large bodies answer slowly anyway). */
  paddingDurationS: number;
  rounds: number;
}

export interface ThroughputResult {
  /** Markdown tables. */
  tables: string[];
  claims: string[];
}

/** The replaying proxy over `fixtures`, with the search limit lifted so a load test is not refused. */
export function spawnProxy(fixtures: string, ...extra: string[]): Promise<Child> {
  return spawnServer([CLI, 'proxy', '--replay', '--fixtures', fixtures, '--port', '0', '--search-limit', 'off', ...extra]);
}

interface Scenario {
  name: string;
  durationS: number;
  /** Fewest requests of the untimed warm-up (two passes over the paths, at least this). */
  warmup: number;
  paths: string[];
  bodies: Set<string>;
  /** `passed`: passes over every path the server was sent while the scenario was set up (talkback's recording). */
  servers: { name: string; child: Child; passed: number }[];
}

export async function throughputBench(o: ThroughputOptions): Promise<ThroughputResult> {
  const children: Child[] = [];
  const start = async (p: Promise<Child>) => {
    const c = await p;
    children.push(c);
    return c;
  };
  try {
    const scenarios: Scenario[] = [];
    const sizes = [1, o.large];
    for (const size of sizes) scenarios.push(await scenario(o, `${count(size)} fixture${size > 1 ? 's' : ''}`, size, 0, true, start));
    for (const padding of o.paddings) scenarios.push(await scenario(o, `1 fixture, ${kb(padding)} body`, 1, padding, false, start));

    const runs = new Map<string, (LoadResult & { cpuUs: number })[]>();
    const variants = scenarios.flatMap((s) => s.servers.map((server) => ({ s, server, key: `${s.name}|${server.name}` })));
    // Every server is first sent each request twice, untimed in the rounds (talkback's recording is
    // its first pass): JIT-compiled, its caches warm (the proxy keeps a request's keying from its
    // second sighting), as in a test suite that replays its cassette run after run. The rate of these
    // warm-up passes is shown beside (with many fixtures only: autocannon takes a second at least,
    // so the few requests of one fixture say nothing).
    const cold = new Map<string, LoadResult>();
    for (const v of variants) {
      const amount = Math.max((2 - v.server.passed) * v.s.paths.length, v.s.warmup);
      cold.set(v.key, await load({ url: v.server.child.url, paths: v.s.paths, headers: HEADERS, bodies: v.s.bodies, connections: o.connections, amount }));
    }
    for (let round = 0; round < o.rounds; round++) {
      const order = round % 2 ? [...variants].reverse() : variants;
      for (const v of order) {
        const cpuBefore = v.server.child.cpuMs() ?? NaN;
        const r = await load({ url: v.server.child.url, paths: v.s.paths, headers: HEADERS, bodies: v.s.bodies, connections: o.connections, durationS: v.s.durationS });
        // The server's own CPU per answer: what it costs, whatever share of the machine it got.
        const cpuUs = (((v.server.child.cpuMs() ?? NaN) - cpuBefore) * 1000) / r.answers;
        runs.set(v.key, [...runs.get(v.key) ?? [], { ...r, cpuUs }]);
      }
    }

    type Run = LoadResult & { cpuUs: number };
    const med = (key: string, f: (r: Run) => number) => median(runs.get(key)!.map(f));
    const rows: string[] = [];
    const claims: string[] = [];
    for (const s of scenarios) {
      /**
       * `f` of a server's run against the bare server's in the same round, where the two ran next to
       * each other; the median over rounds. Paired so a slow stretch of a shared machine moves both
       * sides of one pair, not one side's median (p99 of 1 MB answers moved by 4 ms from run to run).
       */
      const vsBare = (key: string, f: (r: Run, b: Run) => number) => {
        const base = runs.get(`${s.name}|bare node:http`)!;
        return median(runs.get(key)!.map((r, round) => f(r, base[round]!)));
      };
      for (const { name } of s.servers) {
        const key = `${s.name}|${name}`;
        const all = runs.get(key)!;
        const first = cold.get(key)!;
        rows.push(`| ${s.name} | ${name} | ${count(med(key, (r) => r.rps))} | ${vsBare(key, (r, b) => r.rps / b.rps).toFixed(2)}x `
          + `| ${med(key, (r) => r.p50Ms).toFixed(1)} | ${med(key, (r) => r.p99Ms).toFixed(1)} | ${med(key, (r) => r.cpuUs).toFixed(0)} `
          + `| ${s.paths.length > 1 ? count(first.rps) : '-'} | ${count(first.answers + all.reduce((n, r) => n + r.answers, 0))} | ${first.wrong + all.reduce((n, r) => n + r.wrong, 0)} |`);
      }
      const proxy = `${s.name}|replaying proxy`;
      const ratio = vsBare(proxy, (r, b) => r.rps / b.rps);
      const added = vsBare(proxy, (r, b) => r.p99Ms - b.p99Ms);
      const talkback = runs.has(`${s.name}|talkback`) ? `, talkback ${vsBare(`${s.name}|talkback`, (r, b) => r.rps / b.rps).toFixed(2)}x` : '';
      const cpu = vsBare(proxy, (r, b) => r.cpuUs - b.cpuUs);
      claims.push(`throughput (${s.name}, ${o.connections} connections): replaying proxy = ${ratio.toFixed(2)}x the bare server's requests/s${talkback} (target >= 0.8x: ${ratio >= 0.8 ? 'met' : 'NOT met'}); `
        + `p99 added ${added.toFixed(1)} ms (target < 2 ms: ${added < 2 ? 'met' : 'NOT met'}); ${cpu.toFixed(0)} µs more server CPU per answer than the bare server`);
    }
    const wrong = [...runs.values(), [...cold.values()]].flat().reduce((n, r) => n + r.wrong, 0);
    if (wrong) claims.push(`WARNING: ${wrong} answers were not the expected bytes (see the "wrong" column)`);
    const table = [
      `| scenario | server | requests/s | vs bare | p50 ms | p99 ms | server CPU µs/answer | warm-up passes, requests/s | answers checked | wrong |`,
      `|---|---|---:|---:|---:|---:|---:|---:|---:|---:|`,
      ...rows,
    ].join('\n');
    return { tables: [table], claims };
  } finally {
    await Promise.all(children.map((c) => c.stop()));
  }
}

/** A cassette of `size` fixtures, the proxy over it, the bare server with the proxy's answers, and (`withTalkback`) talkback recorded from the bare server. */
async function scenario(o: ThroughputOptions, name: string, size: number, padding: number, withTalkback: boolean, start: (p: Promise<Child>) => Promise<Child>): Promise<Scenario> {
  const dir = join(o.temp, `load-${size}-${padding}`);
  mkdirSync(dir);
  writeCassette(dir, size, 'one-route', padding);
  const paths = Array.from({ length: size }, (_, i) => searchPath(i));
  const proxy = await start(spawnProxy(dir));
  const answers = new Map<string, Captured>();
  for (const path of paths) answers.set(path, await capture(proxy.url, path));
  const file = join(o.temp, `answers-${size}-${padding}.json`);
  writeFileSync(file, writeAnswers(answers));
  const bare = await start(spawnServer([SERVE, 'bare', file]));
  const bodies = new Set([...answers.values()].map((a) => a.body.toString()));
  // The proxy's answers were captured with another client's headers: to its memory of requests, not a pass.
  const servers = [{ name: 'bare node:http', child: bare, passed: 0 }, { name: 'replaying proxy', child: proxy, passed: 0 }];
  if (withTalkback) {
    const tapes = join(o.temp, `tapes-${size}`);
    mkdirSync(tapes);
    const talkback = await start(spawnServer([SERVE, 'talkback', tapes, bare.url]));
    // One request per exchange records every tape, with the headers the load generator sends.
    const recorded = await load({ url: talkback.url, paths, headers: HEADERS, bodies, connections: 1, amount: size });
    if (recorded.wrong) throw new Error(`talkback recorded ${recorded.wrong} wrong answers of ${size}`);
    servers.splice(1, 0, { name: 'talkback', child: talkback, passed: 1 });
  }
  return { name, durationS: padding ? o.paddingDurationS : o.durationS, warmup: padding ? 20 : 1000, paths, bodies, servers };
}

async function capture(origin: string, path: string): Promise<Captured> {
  const res = await request(`${origin}${path}`, { headers: HEADERS });
  const body = Buffer.from(await res.body.arrayBuffer());
  if (res.statusCode !== 200) throw new Error(`the proxy answered ${path} with ${res.statusCode}: ${body.toString().slice(0, 200)}`);
  const headers = Object.fromEntries(Object.entries(res.headers).filter(([k]) => !HOP_BY_HOP.includes(k)).map(([k, v]) => [k, String(v)]));
  return { status: res.statusCode, headers, body };
}

function kb(chars: number): string {
  return chars >= 1024 * 1024 ? `${chars / (1024 * 1024)} MB` : `${Math.round(chars / 1024)} KB`;
}
