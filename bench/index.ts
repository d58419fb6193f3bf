/**
 * `npm run bench`: the project's performance claims, each measured side by side in this one run
 * (variants interleaved, medians) and printed as tables plus one line per claim; the same figures
 * are written to docs/performance.md. Loopback only, bounded loop counts, everything in one
 * temporary folder removed at the end.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { KNOWN_REQUESTS_BYTES } from '../proxy/known-requests.js';
import { DEFAULT_CACHE_BYTES } from '../proxy/rendered.js';
import { writeCassette } from './cassettes.js';
import { footprintBench } from './footprint.js';
import { count, table, tempDir, type Row } from './harness.js';
import { identitiesBench } from './identities.js';
import { liveVsReplayBench } from './live-vs-replay.js';
import { startupBench } from './startup.js';
import { throughputBench } from './throughput.js';

const SIZES = [1, 1_000, 10_000, 100_000];
const TARGET = 10_000;
const DOC = new URL('../../docs/performance.md', import.meta.url);

const started = performance.now();
const rows: Row[] = [];
const tables: [title: string, markdown: string][] = [];
const claims: string[] = [];
const notes: string[] = [];
const progress = (what: string) => process.stderr.write(`bench: ${what} (${((performance.now() - started) / 1000).toFixed(0)} s)\n`);

/** The sections, in run order; `node dist/bench/index.js throughput footprint` runs only those named (docs/performance.md is rewritten only by a whole run). */
const SECTIONS: Record<string, () => Promise<void>> = {
  async throughput() {
    const load = await throughputBench({ temp: temp.dir, large: TARGET, paddings: [64 * 1024, 1024 * 1024], connections: 10, durationS: 2, paddingDurationS: 1.5, rounds: 4 });
    // Many short rounds rather than a few long ones: a neighbour's burst on a shared machine then lands in one sample of each side, not in one side's only two.
    tables.push(['Throughput (autocannon, 10 connections, 4 rounds in alternating order of 2 s per run (1.5 s for the large bodies), after two untimed passes over every request; every answer checked against the expected bytes; "vs bare" is the median of the per-round ratios)', load.tables[0]!]);
    claims.push(...load.claims);
  },
  async footprint() {
    // Five spawns per size: a neighbour's burst on a shared machine then moves one sample of the median, not the median.
    const footprint = await footprintBench(cassettes(), 5, TARGET);
    tables.push(['Startup and memory by cassette size (the CLI in replay mode; medians of 5 spawns)', footprint.tables[0]!]);
    tables.push(['Loading by command (medians of 5)', footprint.tables[1]!]);
    claims.push(...footprint.claims);
  },
  async opening() {
    const spread = join(temp.dir, `cassette-${TARGET}-spread`);
    mkdirSync(spread);
    writeCassette(spread, TARGET, 'spread');
    const startup = await startupBench(cassettes().get(TARGET)!, spread, TARGET, 3);
    rows.push(...startup.rows);
    claims.push(...startup.claims);
  },
  async credentials() {
    const dirs = { current: join(temp.dir, 'identities-hmac'), legacy: join(temp.dir, 'identities-scrypt') };
    Object.values(dirs).forEach((d) => mkdirSync(d));
    const identities = await identitiesBench({ dirs, requests: 1000, rounds: 5, senders: 20, perSender: { current: 100, legacy: 5 } });
    rows.push(...identities.rows);
    claims.push(...identities.claims);
  },
  async live() {
    const live = await liveVsReplayBench(join(temp.dir, 'recorded'));
    rows.push(...live.rows);
    claims.push(...live.claims);
    if (live.skipped) notes.push(live.skipped);
  },
};

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in SECTIONS));
if (unknown.length) {
  process.stderr.write(`bench: no section ${unknown.join(', ')}; the sections are ${Object.keys(SECTIONS).join(', ')}\n`);
  process.exit(2);
}
const whole = asked.length === 0;
const temp = tempDir('proxy');
// Ctrl-C still removes the cassettes (child servers are killed with their parent's exit).
process.once('SIGINT', () => {
  temp.remove();
  process.exit(130);
});

/** The cassettes of every size, written once when a section first needs them. */
let written: Map<number, string> | undefined;
function cassettes(): Map<number, string> {
  written ??= new Map(SIZES.map((size) => {
    progress(`writing a cassette of ${count(size)} fixtures`);
    const dir = join(temp.dir, `cassette-${size}`);
    mkdirSync(dir);
    writeCassette(dir, size);
    return [size, dir] as const;
  }));
  return written;
}

try {
  for (const [name, run] of Object.entries(SECTIONS)) {
    if (!whole && !asked.includes(name)) continue;
    progress(name);
    await run();
  }
} finally {
  temp.remove();
}

const seconds = ((performance.now() - started) / 1000).toFixed(0);
const inProcess = `${rows.length ? table(rows) : '(no in-process section run)'}\n\nmedians of interleaved rounds in one process; spread is half of (max - min) / median.`;
process.stdout.write(`\n${tables.map(([title, t]) => `${title}\n\n${t}`).join('\n\n')}\n\n${inProcess}\n\n${claims.join('\n')}\n`);
if (notes.length) process.stdout.write(`\n${notes.map((n) => `note: ${n}`).join('\n')}\n`);
process.stdout.write(`\nTotal ${seconds} s.\n`);
if (!whole) process.exit(0);

writeFileSync(DOC, [
  '# Performance',
  '',
  `Written by \`npm run bench\` (bench/index.ts) on ${new Date().toISOString().slice(0, 10)}: ${cpus().length} CPUs (${cpus()[0]?.model.trim() ?? 'unknown'}), `
  + `${count(totalmem() / 1024 / 1024 / 1024)} GB, Node ${process.version}; the whole run took ${seconds} s. Every figure below comes from that one run, `
  + 'each comparison measured side by side (variants interleaved, medians), so a busy machine slows every side alike; '
  + 'absolute figures move with the machine, the ratios are what to compare.',
  '',
  '## Claims',
  '',
  ...claims.map((c) => `- ${c}`),
  ...notes.map((n) => `- note: ${n}`),
  '',
  ...tables.flatMap(([title, t]) => [`## ${title}`, '', t, '']),
  '## Opening a cassette and whole runs (in one process)',
  '',
  '```',
  inProcess,
  '```',
  '',
  '## How to read and reproduce',
  '',
  '- Command: `npm run bench` (builds, then runs `node dist/bench/index.js`); it rewrites this file. '
  + `One section alone, to iterate: \`node dist/bench/index.js ${Object.keys(SECTIONS).join('|')}\` (several may be named; this file is left as it is).`,
  '- The proxy is the CLI itself: `conformance proxy --replay --fixtures DIR --port 0 --search-limit off` in a child process. '
  + '`--search-limit off` keeps the synthesized search limit (30 a minute) from turning a load test into 403s.',
  '- "bare node:http" answers the bytes the proxy answered (captured first: status, headers, body), so both send the same bytes; '
  + 'talkback (a dev dependency) records the same exchanges from the bare server first, then replays them. '
  + 'Each server is sent every request twice before the timed rounds (talkback\'s recording counts as its first pass; the rate of these warm-up passes is in its own column): '
  + 'the proxy keeps the keying of a bodiless request from its second sighting, and every side is JIT-compiled alike.',
  `- Resident memory is read from /proc (Linux). Rendered answers are kept in a byte-bounded cache (\`--cache-mb\`, default ${DEFAULT_CACHE_BYTES / 1024 / 1024}), `
  + `parsed fixtures in a smaller one, the keys of bodiless requests seen twice in a third (${KNOWN_REQUESTS_BYTES / 1024 / 1024} MB), `
  + 'so memory after every fixture was requested is bounded however many there are. '
  + 'The proxy command bounds V8\'s heap growth itself (young generation kept at its initial size, old generation collected once '
  + 'it grows a fifth over what was live: `--semi-space-growth-factor=1 --heap-growing-percent=20`, set by src/commands/proxy.ts), '
  + 'since most of a replay\'s resident memory was V8\'s slack, not what it keeps.',
  '',
].join('\n'));
process.stderr.write(`bench: wrote ${DOC.pathname}\n`);
