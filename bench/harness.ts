/**
 * The bench harness: variants measured interleaved in one process (A B, then B A, for several
 * rounds) and compared by their medians, so a noisy shared machine slows both sides alike.
 * Nothing here asserts a timing; the numbers are printed for a person to read.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

/** One variant of a comparison: `run` does its own setup and returns the milliseconds of the part that counts. */
export interface Variant {
  name: string;
  run: () => Promise<number>;
}

/** Milliseconds `fn` took. */
export async function timed(fn: () => Promise<unknown> | unknown): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/**
 * Runs every variant once per round, the order reversed every other round, after `warmup` rounds
 * that are not kept. Returns the samples of each variant, in the order given.
 */
export async function interleave(variants: readonly Variant[], rounds: number, warmup = 1): Promise<number[][]> {
  const samples = variants.map((): number[] => []);
  for (let round = 0; round < warmup + rounds; round++) {
    const order = variants.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const i of order) {
      const ms = await variants[i]!.run();
      if (round >= warmup) samples[i]!.push(ms);
    }
  }
  return samples;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** A row of the results table: one variant's median, and per-operation figures when it did `ops` operations. */
export interface Row {
  bench: string;
  variant: string;
  medianMs: number;
  /** Operations per sample (requests, opens, runs). */
  ops: number;
  rounds: number;
  /** Spread of the samples: (max - min) / median. */
  spread: number;
}

export function row(bench: string, variant: string, samples: readonly number[], ops: number): Row {
  const m = median(samples);
  return { bench, variant, medianMs: m, ops, rounds: samples.length, spread: m > 0 ? (Math.max(...samples) - Math.min(...samples)) / m : 0 };
}

/** `1,234`-style grouping, independent of the machine's locale. */
export function count(n: number): string {
  return Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function duration(ms: number): string {
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 1) return `${ms.toFixed(ms >= 100 ? 0 : 1)} ms`;
  return `${(ms * 1000).toFixed(0)} µs`;
}

export function table(rows: readonly Row[]): string {
  const header = ['bench', 'variant', 'median', 'ops', 'per op', 'ops/s', 'rounds', 'spread'];
  const cells = rows.map((r) => [
    r.bench, r.variant, duration(r.medianMs), count(r.ops), duration(r.medianMs / r.ops),
    r.ops > 1 ? count((r.ops * 1000) / r.medianMs) : '-', String(r.rounds), `±${Math.round((r.spread * 100) / 2)}%`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((s, i) => (i < 2 ? s.padEnd(widths[i]!) : s.padStart(widths[i]!))).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

/** "1.04x": how many times `a`'s per-operation time is `b`'s. */
export function ratio(a: Row, b: Row): string {
  return `${(a.medianMs / a.ops / (b.medianMs / b.ops)).toFixed(2)}x`;
}

/** A temporary folder and the function that removes it. */
export function tempDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `bench-${prefix}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
