/**
 * Sharding (`--shard i/n`): which of n parts of a run a check belongs to. The part is decided by a
 * hash of the check's split unit alone, so it does not depend on which checks a filter selected,
 * and adding a check moves no other. A scenario module whose checks share state or order is one
 * unit, kept whole; a module of checks that stand alone is split check by check.
 */
import { createHash } from 'node:crypto';
import type { CheckSpec, Suite } from './suite.js';

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

/** More parts than a CI matrix holds jobs would only make empty shards. */
export const MAX_SHARDS = 256;

/** `2/3` as a shard, or undefined when the text is not i/n with 1 ≤ i ≤ n ≤ MAX_SHARDS. */
export function parseShard(text: string): Shard | undefined {
  const m = /^(\d{1,3})\/(\d{1,3})$/.exec(text.trim());
  if (!m) return undefined;
  const [index, count] = [Number(m[1]), Number(m[2])];
  return index >= 1 && index <= count && count <= MAX_SHARDS ? { index, count } : undefined;
}

export const shardLabel = (shard: Shard): string => `${shard.index}/${shard.count}`;

/** What stays whole in one shard: the module, unless its checks stand alone. */
export function splitUnit(module: Suite, spec: CheckSpec): string {
  return module.independent ? `check:${spec.id}` : `module:${module.name}`;
}

/** The 1-based shard of n that a split unit belongs to. */
export function shardOf(unit: string, count: number): number {
  return (createHash('sha256').update(unit).digest().readUInt32BE(0) % count) + 1;
}
