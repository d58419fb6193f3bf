/**
 * Claim under test: index.json makes opening a large cassette cheaper than rebuilding it from the
 * fixture files. A proxy is started (timed) and closed (untimed) over the same cassette with its
 * index present and with it deleted, in replay mode (read-only) and in record-missing mode
 * (writable: a missing or stale index is written back), all interleaved. A cassette of the same
 * size with every fixture on a route of its own runs alongside, to show what the fixtures' routes
 * cost (the near-miss grouping is built while opening).
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { INDEX_FILE } from '../proxy/cassette.js';
import { createProxy, type ProxyOptions } from '../proxy/server.js';
import { count, interleave, ratio, row, timed, type Row, type Variant } from './harness.js';

export interface StartupResult {
  rows: Row[];
  claims: string[];
}

/** record-missing needs a target; nothing is requested, so nothing need listen there. */
const UNUSED_TARGET = 'http://127.0.0.1:9/';

/** `oneRoute` and `spread` are cassettes of `size` fixtures (see cassettes.ts). */
export async function startupBench(oneRoute: string, spread: string, size: number, rounds: number): Promise<StartupResult> {
  const saved = new Map([oneRoute, spread].map((dir) => [dir, readFileSync(join(dir, INDEX_FILE))]));
  const open = (dir: string, mode: ProxyOptions['mode'], withIndex: boolean) => async () => {
    if (withIndex) writeFileSync(join(dir, INDEX_FILE), saved.get(dir)!);
    else rmSync(join(dir, INDEX_FILE), { force: true });
    let proxy: Awaited<ReturnType<typeof createProxy>> | undefined;
    const ms = await timed(async () => {
      proxy = await createProxy({ mode, fixtures: dir, port: 0, ...(mode === 'replay' ? {} : { target: UNUSED_TARGET }) });
    });
    if (proxy?.cassette?.size !== size) throw new Error(`${mode} proxy opened ${proxy?.cassette?.size} interactions, expected ${size}`);
    await proxy.close();
    return ms;
  };
  const variants: (Variant & { bench: string })[] = [
    { bench: 'startup, replay', name: 'with index.json', run: open(oneRoute, 'replay', true) },
    { bench: 'startup, replay', name: 'index deleted', run: open(oneRoute, 'replay', false) },
    { bench: 'startup, record-missing', name: 'with index.json', run: open(oneRoute, 'record-missing', true) },
    { bench: 'startup, record-missing', name: 'index deleted', run: open(oneRoute, 'record-missing', false) },
    { bench: 'startup, replay', name: 'route per fixture', run: open(spread, 'replay', true) },
  ];
  try {
    // No warm-up round: the lookup bench has already opened these files once.
    const samples = await interleave(variants, rounds, 0);
    const rows = variants.map((v, i) => row(v.bench, v.name, samples[i]!, 1));
    const [replayWith, replayWithout, writableWith, writableWithout, spreadRow] = rows as [Row, Row, Row, Row, Row];
    const ms = (r: Row) => `${r.medianMs.toFixed(0)} ms`;
    const n = count(size);
    return {
      rows,
      claims: [
        `startup (replay, ${n} fixtures): with index.json vs rebuilt from the files = ${ratio(replayWith, replayWithout)} time (${ms(replayWith)} vs ${ms(replayWithout)}; below 1x if the index saves work)`,
        `startup (record-missing, ${n} fixtures): with index.json vs rebuilt from the files = ${ratio(writableWith, writableWithout)} time (${ms(writableWith)} vs ${ms(writableWithout)})`,
        `startup (replay, ${n} fixtures): all on one route vs a route each = ${ratio(replayWith, spreadRow)} time (${ms(replayWith)} vs ${ms(spreadRow)}; ~1x if opening is linear in fixtures per route)`,
      ],
    };
  } finally {
    for (const [dir, index] of saved) writeFileSync(join(dir, INDEX_FILE), index);
  }
}
