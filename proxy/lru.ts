/**
 * A map that forgets its least recently used entries once their total weight passes a budget, so
 * what a long replay keeps in memory is bounded however many fixtures it has served.
 */
export class Lru<K, V> {
  /** Map order is recency order: the first entry is the least recently used. */
  private readonly entries = new Map<K, { value: V; weight: number }>();
  private total = 0;

  constructor(readonly budget: number, private readonly weigh: (value: V) => number) {
    if (!(budget >= 0)) throw new Error(`cache budget must be a number >= 0, not ${budget}`);
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value` unless it alone outweighs the budget; older entries make room. `weight`: when the caller knows it (from the key). */
  set(key: K, value: V, weight = this.weigh(value)): void {
    this.delete(key);
    if (weight > this.budget) return;
    this.entries.set(key, { value, weight });
    this.total += weight;
    for (const [oldest, entry] of this.entries) {
      if (this.total <= this.budget) break;
      this.entries.delete(oldest);
      this.total -= entry.weight;
    }
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.weight;
  }

  /** Sum of the weights held, never above the budget. */
  get weight(): number {
    return this.total;
  }

  get size(): number {
    return this.entries.size;
  }
}
