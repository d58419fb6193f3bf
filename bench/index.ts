/**
 * `npm run bench`: the project's timing claims, each measured side by side in this one process
 * (variants interleaved, several rounds, medians) and printed as a table plus one line per claim.
 * Loopback only, bounded loop counts, everything in one temporary folder removed at the end.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { writeCassette } from './cassettes.js';
import { table, tempDir, type Row } from './harness.js';
import { identitiesBench } from './identities.js';
import { liveVsReplayBench } from './live-vs-replay.js';
import { lookupBench } from './lookup.js';
import { startupBench } from './startup.js';

const SMALL = 100;
const LARGE = 10_000;

const started = performance.now();
const temp = tempDir('proxy');
const rows: Row[] = [];
const claims: string[] = [];
const notes: string[] = [];
// Ctrl-C still removes the cassettes (servers end with the process).
process.once('SIGINT', () => {
  temp.remove();
  process.exit(130);
});
const progress = (what: string) => process.stderr.write(`bench: ${what} (${((performance.now() - started) / 1000).toFixed(0)} s)\n`);

try {
  const dirs = [join(temp.dir, `cassette-${SMALL}`), join(temp.dir, `cassette-${LARGE}`)] as [string, string];
  const spread = join(temp.dir, `cassette-${LARGE}-spread`);
  [...dirs, spread].forEach((d) => mkdirSync(d));
  progress('lookup');
  const lookup = await lookupBench({ sizes: [SMALL, LARGE], dirs, hits: 1000, misses: { crowded: 10, empty: 500 }, rounds: { hits: 15, misses: 7 } });
  rows.push(...lookup.rows);
  claims.push(...lookup.claims);

  progress('startup');
  writeCassette(spread, LARGE, 'spread');
  const startup = await startupBench(dirs[1], spread, LARGE, 3);
  rows.push(...startup.rows);
  claims.push(...startup.claims);

  progress('new credentials');
  const credentials = { current: join(temp.dir, 'identities-hmac'), legacy: join(temp.dir, 'identities-scrypt') };
  Object.values(credentials).forEach((d) => mkdirSync(d));
  const identities = await identitiesBench({ dirs: credentials, requests: 1000, rounds: 5, senders: 20, perSender: { current: 100, legacy: 5 } });
  rows.push(...identities.rows);
  claims.push(...identities.claims);

  progress('replay vs live');
  const live = await liveVsReplayBench(join(temp.dir, 'recorded'), 3);
  rows.push(...live.rows);
  claims.push(...live.claims);
  if (live.skipped) notes.push(live.skipped);
} finally {
  temp.remove();
}

process.stdout.write(`\n${table(rows)}\n\n${claims.join('\n')}\n`);
if (notes.length) process.stdout.write(`\n${notes.map((n) => `note: ${n}`).join('\n')}\n`);
process.stdout.write(`\nmedians of interleaved rounds in one process; spread is half of (max - min) / median. Total ${((performance.now() - started) / 1000).toFixed(0)} s.\n`);
