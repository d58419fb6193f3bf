/**
 * Claims: a replaying proxy starts fast and stays small however many fixtures it has, and a
 * command loads only its own modules. For each cassette size: the real CLI is spawned and timed
 * until its first answer (rounds interleaved across sizes, medians), its resident memory read
 * then and again after every fixture was requested once; the cassette's bytes on disk beside
 * them. For each command: `--help` timed from spawn to exit, with its peak memory.
 */
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { ACCEPT, searchPath } from './cassettes.js';
import { count, median } from './harness.js';
import { load } from './load.js';
import { CLI, spawnProxy } from './throughput.js';
import { MB } from '../core/bounds.js';

export interface FootprintResult {
  tables: string[];
  claims: string[];
}

/** Peak memory of a process, printed on its way out (the last line of stderr). */
const REPORT_PEAK = `data:text/javascript,process.on('exit',()=>process.stderr.write('\\nmaxrss='+process.resourceUsage().maxRSS+'\\n'))`;

/** `cassettes`: fixture count → a `one-route` cassette of that many (see cassettes.ts). */
export async function footprintBench(cassettes: ReadonlyMap<number, string>, rounds: number, targetSize: number): Promise<FootprintResult> {
  const sizes = [...cassettes.keys()];
  const firstAnswer = new Map<number, number[]>();
  const rssStarted = new Map<number, number[]>();
  for (let round = 0; round < rounds; round++) {
    for (const size of round % 2 ? [...sizes].reverse() : sizes) {
      const proxy = await spawnProxy(cassettes.get(size)!);
      try {
        const res = await request(`${proxy.url}${searchPath(0)}`, { headers: { accept: ACCEPT } });
        await res.body.arrayBuffer();
        if (res.statusCode !== 200) throw new Error(`first answer over ${size} fixtures: ${res.statusCode}`);
        firstAnswer.set(size, [...firstAnswer.get(size) ?? [], performance.now() - proxy.spawnedAt]);
        rssStarted.set(size, [...rssStarted.get(size) ?? [], proxy.rss() ?? NaN]);
      } finally {
        await proxy.stop();
      }
    }
  }

  const rows: string[] = [];
  const claims: string[] = [];
  /** Per size: resident memory after every fixture was requested, and the cassette's bytes on disk. */
  const grown = new Map<number, { rss: number; disk: number }>();
  for (const size of sizes) {
    const dir = cassettes.get(size)!;
    const proxy = await spawnProxy(dir);
    try {
      const paths = Array.from({ length: size }, (_, i) => searchPath(i));
      // Every fixture once, checked for status only (the throughput bench checks bodies).
      const all = await load({ url: proxy.url, paths, headers: { accept: ACCEPT }, connections: 10, amount: size });
      const after = proxy.rss() ?? NaN;
      const started = median(rssStarted.get(size)!);
      const ms = median(firstAnswer.get(size)!);
      const disk = diskBytes(dir);
      grown.set(size, { rss: after, disk });
      rows.push(`| ${count(size)} | ${ms.toFixed(0)} | ${(started / MB).toFixed(0)} | ${(after / MB).toFixed(0)} | ${(disk / MB).toFixed(1)} | ${count(all.answers)}${all.wrong ? ` (${all.wrong} wrong)` : ''} |`);
      if (size === targetSize) {
        claims.push(`startup (${count(size)} fixtures): ${ms.toFixed(0)} ms from spawn to first answer (target < 300 ms: ${ms < 300 ? 'met' : 'NOT met'})`);
        claims.push(`memory (${count(size)} fixtures): ${(started / MB).toFixed(0)} MB resident after the first answer, ${(after / MB).toFixed(0)} MB after every fixture was requested (target < 100 MB: ${Math.max(started, after) < 100 * MB ? 'met' : 'NOT met'})`);
      }
    } finally {
      await proxy.stop();
    }
  }
  const [smallest, largest] = [grown.get(Math.min(...sizes))!, grown.get(Math.max(...sizes))!];
  const perDisk = (largest.rss - smallest.rss) / (largest.disk - smallest.disk);
  claims.push(`memory growth: ${(largest.rss / MB - smallest.rss / MB).toFixed(0)} MB more resident after every fixture was requested at ${count(Math.max(...sizes))} fixtures than at ${count(Math.min(...sizes))}, `
    + `for ${((largest.disk - smallest.disk) / MB).toFixed(0)} MB more on disk = ${perDisk.toFixed(2)} MB per MB (target: no faster than the fixtures on disk, <= 1: ${perDisk <= 1 ? 'met' : 'NOT met'})`);
  const fixtures = [
    '| fixtures | spawn to first answer, ms | resident after first answer, MB | resident after every fixture requested once, MB | cassette on disk, MB | requests |',
    '|---:|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
  return { tables: [fixtures, await commandsTable(rounds)], claims };
}

/** What each command costs to load: `--help` (which parses the command, so imports its module) from spawn to exit. */
async function commandsTable(rounds: number): Promise<string> {
  const commands: [string, string[]][] = [
    ['node, nothing loaded', ['-e', '']],
    ['conformance faults', [CLI, 'faults']],
    ['conformance proxy --help', [CLI, 'proxy', '--help']],
    ['conformance reference --help', [CLI, 'reference', '--help']],
    ['conformance validate --help', [CLI, 'validate', '--help']],
    ['conformance --help (run)', [CLI, '--help']],
  ];
  const samples = commands.map((): { ms: number; peak: number }[] => []);
  for (let round = 0; round < rounds; round++) {
    for (const i of (round % 2 ? [...commands.keys()].reverse() : [...commands.keys()])) samples[i]!.push(await timedExit(commands[i]![1]));
  }
  return [
    '| command | spawn to exit, ms | peak resident, MB |',
    '|---|---:|---:|',
    ...commands.map(([name], i) => `| ${name} | ${median(samples[i]!.map((s) => s.ms)).toFixed(0)} | ${(median(samples[i]!.map((s) => s.peak)) / MB).toFixed(0)} |`),
  ].join('\n');
}

function timedExit(args: string[]): Promise<{ ms: number; peak: number }> {
  const start = performance.now();
  const child = spawn(process.execPath, ['--import', REPORT_PEAK, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      const kb = /maxrss=(\d+)/.exec(stderr)?.[1];
      if (code !== 0 || !kb) reject(new Error(`${args.join(' ')} exited with ${code}: ${stderr.slice(0, 300)}`));
      else resolve({ ms: performance.now() - start, peak: Number(kb) * 1024 });
    });
  });
}

function diskBytes(dir: string): number {
  return readdirSync(dir).reduce((n, f) => n + statSync(join(dir, f)).size, 0);
}
