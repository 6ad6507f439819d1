import { TtlCache } from '../../platform/ttl-cache.js';
import type { Product } from './products.js';

/** How long a product read for carts is reused without asking the database, when its version is not known. */
export const PRODUCT_CACHE_MS = 1000;
/** How long a product read is kept for reads that bring the products' versions (a cart's read does). */
const PRODUCT_KEPT_MS = 10 * 60_000;
const PRODUCT_CACHE_SIZE = 10_000;

/** A product as read (null: not found), its row version and when it was kept (epoch ms). */
interface KeptProduct { product: Product | null; version: string | null; readAt: number }

/**
 * The products carts and estimates read, per site and product, with their row versions (xmin).
 * Bounded (the oldest entry goes when full). A kept product is current while its version is the
 * one the caller read in its own statement, however old; without a version, for PRODUCT_CACHE_MS.
 */
export class ProductCache {
  private readonly kept: TtlCache<string, KeptProduct>;
  /** Bumped by every write, so a read that overlapped a write does not keep what it saw. */
  generation = 0;

  constructor(private readonly now: () => Date) {
    this.kept = new TtlCache({ ttlMs: PRODUCT_KEPT_MS, maxSize: PRODUCT_CACHE_SIZE, now });
  }

  /** The kept read when current (its product null when the product was not found); `version` undefined: not known. */
  current(siteId: string, productId: string, version: string | null | undefined): { product: Product | null } | undefined {
    const hit = this.kept.get(`${siteId}/${productId}`);
    if (!hit) return undefined;
    const current = version === undefined ? this.now().getTime() - hit.readAt < PRODUCT_CACHE_MS : version === hit.version;
    return current ? hit : undefined;
  }

  /** Keeps a read (undefined: not found), as of now. */
  keep(siteId: string, productId: string, read: { product: Product; version: string } | undefined): void {
    this.kept.set(`${siteId}/${productId}`, { product: read?.product ?? null, version: read?.version ?? null, readAt: this.now().getTime() });
  }

  /** Drops products after a write (before and after it commits, so no reader keeps the old one). */
  forget(siteId: string, productIds: readonly string[]): void {
    this.generation++;
    for (const id of productIds) this.kept.delete(`${siteId}/${id}`);
  }
}
