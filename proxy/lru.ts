/**
 * A map that forgets its least recently used entries once their total weight passes a budget, so
 * what a long replay keeps in memory is bounded however many fixtures it has served.
 *
 * Recency is kept the CLOCK way (second chance): a hit only marks its entry, and eviction moves a
 * marked entry to the back instead of dropping it. A hit thus costs no map write (moving an entry
 * on every hit rebuilt the table of a busy cache again and again), and what goes first is an entry
 * not used since the eviction scan last passed it.
 */
interface Slot<V> {
  value: V;
  weight: number;
  used: boolean;
}

export class Lru<K, V> {
  /** Map order is the clock's: the first entry is the next to be judged for eviction. */
  private readonly entries = new Map<K, Slot<V>>();
  private total = 0;

  constructor(readonly budget: number, private readonly weigh: (value: V) => number) {
    if (!(budget >= 0)) throw new Error(`cache budget must be a number >= 0, not ${budget}`);
  }

  get(key: K): V | undefined {
    const slot = this.entries.get(key);
    if (!slot) return undefined;
    slot.used = true;
    return slot.value;
  }

  /** Keeps `value` unless it alone outweighs the budget; older entries make room. `weight`: when the caller knows it (from the key). */
  set(key: K, value: V, weight = this.weigh(value)): void {
    this.delete(key);
    if (weight > this.budget) return;
    this.entries.set(key, { value, weight, used: false });
    this.total += weight;
    while (this.total > this.budget) {
      const [oldest, slot] = this.entries.entries().next().value as [K, Slot<V>];
      this.entries.delete(oldest);
      // Used since last judged, or the entry making room: a second chance at the back.
      if (slot.used || oldest === key) {
        slot.used = false;
        this.entries.set(oldest, slot);
      } else {
        this.total -= slot.weight;
      }
    }
  }

  delete(key: K): void {
    const slot = this.entries.get(key);
    if (!slot) return;
    this.entries.delete(key);
    this.total -= slot.weight;
  }

  /** Sum of the weights held, never above the budget. */
  get weight(): number {
    return this.total;
  }

  get size(): number {
    return this.entries.size;
  }
}
