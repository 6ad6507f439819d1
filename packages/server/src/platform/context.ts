import type { Db, Queryable } from './db.js';

/** Kept off the public shape so a service cannot reach the pool while a transaction is open. */
const POOL = Symbol('bodega.pool');

/**
 * Where a store's queries go: the pool, or the open transaction inside withTransaction. Stores
 * read `ctx.db` and nothing else, so a query issued inside a transaction always joins it (on
 * PGlite a plain query would wait for the transaction's own lock).
 */
export interface DbContext {
  readonly db: Queryable;
  /** The pool withTransaction opens a transaction on; null inside one (it is joined instead). */
  readonly [POOL]: Db | null;
}

/** A site's calls outside a request (sign-in hooks, jobs, the CLI) and the base of every request's. */
export interface SiteContext extends DbContext {
  readonly siteId: string;
  now(): Date;
}

export function siteContext(db: Db, siteId: string, now: () => Date): SiteContext {
  return { db, [POOL]: db, siteId, now };
}

/**
 * The pool as a context, for work that belongs to no one site (the workers that claim rows across
 * sites, the sites registry): stores take it like any other context, and withTransaction opens on it.
 */
export function poolContext(db: Db): DbContext {
  return { db, [POOL]: db };
}

/**
 * One site's context on what `ctx` runs on: the pool, or — inside withTransaction — the open
 * transaction, which the site's calls then join (a worker's transaction that walks rows of many sites).
 */
export function forSite(ctx: DbContext, siteId: string, now: () => Date): SiteContext {
  return { db: ctx.db, [POOL]: ctx[POOL], siteId, now };
}

export function inTransaction(ctx: DbContext): boolean {
  return ctx[POOL] === null;
}

/**
 * Runs fn in one transaction with a context whose `db` is that transaction; inside an open one
 * it joins it, so a multi-step write composed of other service calls commits or rolls back whole.
 */
export async function withTransaction<C extends DbContext, T>(ctx: C, fn: (ctx: C) => Promise<T>): Promise<T> {
  const pool = ctx[POOL];
  if (!pool) return fn(ctx);
  return pool.transaction((tx) => fn({ ...ctx, db: tx, [POOL]: null }));
}
