import { describe, expect, it } from 'vitest';
import { TtlCache } from './ttl-cache.js';

describe('TtlCache', () => {
  it('answers an entry until its time is up on the injected clock, remembering misses too', () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const cache = new TtlCache<string, string | null>({ ttlMs: 1000, maxSize: 10, now: () => now });
    cache.set('a', 'A');
    cache.set('missing', null);
    expect(cache.lookup('a')).toEqual({ value: 'A' });
    expect(cache.lookup('missing')).toEqual({ value: null });
    expect(cache.lookup('other')).toBeUndefined();
    now = new Date(now.getTime() + 999);
    expect(cache.get('a')).toBe('A');
    now = new Date(now.getTime() + 1);
    expect(cache.lookup('a')).toBeUndefined();
    expect(cache.size).toBe(1);
  });

  it('keeps an entry until an explicit expiry and drops the oldest when full', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const cache = new TtlCache<number, number>({ ttlMs: 1000, maxSize: 2, now: () => now });
    cache.set(1, 1, now.getTime() - 1);
    expect(cache.get(1)).toBeUndefined();
    cache.set(1, 1);
    cache.set(2, 2);
    cache.set(3, 3);
    expect([cache.get(1), cache.get(2), cache.get(3)]).toEqual([undefined, 2, 3]);
    cache.delete(2);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('with an infinite ttl keeps entries for good, yet never holds more than its size (per-site keys on a server of many sites)', () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const cache = new TtlCache<string, string>({ ttlMs: Number.POSITIVE_INFINITY, maxSize: 3, now: () => now });
    for (const site of ['a', 'b', 'c', 'd', 'e']) cache.set(site, `key of ${site}`);
    now = new Date('2036-01-01T00:00:00Z');
    expect(cache.size).toBe(3);
    expect(['a', 'b', 'c', 'd', 'e'].map((site) => cache.get(site))).toEqual([undefined, undefined, 'key of c', 'key of d', 'key of e']);
  });
});
