/**
 * A per-process read cache whose entries expire on the injected clock, so tests move time
 * instead of waiting. Bounded: when full, the oldest entry goes. Values may be null or
 * undefined (a remembered miss), hence `lookup` answers a box.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; until: number }>();

  constructor(private readonly options: { ttlMs: number; maxSize: number; now: () => Date }) {}

  lookup(key: K): { value: V } | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= this.options.now().getTime()) {
      this.entries.delete(key);
      return undefined;
    }
    return { value: entry.value };
  }

  get(key: K): V | undefined {
    return this.lookup(key)?.value;
  }

  /** Keeps a value for the cache's ttl, or until `until` (epoch ms) when given. */
  set(key: K, value: V, until = this.options.now().getTime() + this.options.ttlMs): void {
    this.entries.delete(key);
    if (this.entries.size >= this.options.maxSize) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, until });
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
