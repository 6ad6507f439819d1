// A member's standing (status, role, access epoch) as their member row has it now: asked at every
// call with a member's access token and at every renewal. Kept in a per-process cache that a
// change cannot outlive (see MemberAccess).
import type { MemberRole } from '../../platform/caller.js';
import type { SiteContext } from '../../platform/context.js';
import type { Db } from '../../platform/db.js';
import { TtlCache } from '../../platform/ttl-cache.js';
import type { MemberStatus } from './entry.js';
import * as store from './store.js';

/** The channel the members table's trigger notifies on (migration 0800). */
export const MEMBER_ACCESS_CHANNEL = 'bodega_member_access';

/** While every change is heard (LISTEN, or one process): a cap that only bounds a silently lost notice. */
export const ACCESS_CACHE_HEARD_MS = 30_000;
/** Behind a transaction pooler without a direct URL, nothing is heard: the cache's age is the bound. */
export const ACCESS_CACHE_UNHEARD_MS = 1000;
const ACCESS_CACHE_SIZE = 20_000;

export type Access = { memberRole: MemberRole; accessEpoch: number } | null;

/** The member row's status, role and access epoch; undefined when there is none (deleted). */
export type Standing = { status: MemberStatus; role: MemberRole; accessEpoch: number } | undefined;

/**
 * How changes reach this process's cache:
 * - `heard`: the members trigger's notices arrive (PostgreSQL LISTEN, or PGlite's own process).
 *   A change is seen by the first request after its notice arrives (milliseconds after commit).
 * - `deaf`: no LISTEN is possible (DATABASE_POOLER=transaction without DATABASE_DIRECT_URL):
 *   an answer is kept at most ACCESS_CACHE_UNHEARD_MS.
 * - `lost`: the listening connection is down; nothing is cached until it is back (then the cache
 *   is emptied, as notices may have been missed meanwhile).
 */
export type AccessFeed = 'heard' | 'deaf' | 'lost';

/**
 * The member check. Answers come from a cache kept per process; a change of role, status or
 * epoch, or a deletion, drops the answer here at once (`forget`) and in every other process when
 * the members trigger's notice arrives. A read that overlaps a drop is not kept, so an answer
 * read before a commit can never be cached after its notice.
 */
export class MemberAccess {
  private readonly cache: TtlCache<string, Standing>;
  private feed: AccessFeed = 'deaf';
  /** Bumped by every drop; a read that saw it change is not kept. */
  private drops = 0;
  private stopListening: (() => Promise<void>) | undefined;
  /** Who waits for the next notice about a member (tests of another server's change). */
  private readonly waiters = new Map<string, (() => void)[]>();

  constructor(private readonly now: () => Date) {
    this.cache = new TtlCache({ ttlMs: ACCESS_CACHE_UNHEARD_MS, maxSize: ACCESS_CACHE_SIZE, now });
  }

  /** Starts hearing the members trigger's notices, when the database can deliver them. */
  async listen(db: Pick<Db, 'listen'>): Promise<void> {
    if (!db.listen) return;
    this.stopListening = await db.listen(MEMBER_ACCESS_CHANNEL, (payload) => {
      this.drop(payload);
      const waiting = this.waiters.get(payload);
      this.waiters.delete(payload);
      for (const wake of waiting ?? []) wake();
    }, (live) => {
      this.feed = live ? 'heard' : 'lost';
      this.drops++;
      this.cache.clear();
    });
  }

  async close(): Promise<void> {
    const stop = this.stopListening;
    this.stopListening = undefined;
    this.feed = 'deaf';
    await stop?.();
  }

  get feedState(): AccessFeed {
    return this.feed;
  }

  /** Only APPROVED members renew tokens, with their current role and epoch. */
  async check(ctx: SiteContext, memberId: string): Promise<Access> {
    const member = await this.standing(ctx, memberId);
    return member?.status === 'APPROVED' ? { memberRole: member.role, accessEpoch: member.accessEpoch } : null;
  }

  /** Resolves when the next notice about the member is heard (ask before the change). */
  whenHeard(ctx: Pick<SiteContext, 'siteId'>, memberId: string): Promise<void> {
    const key = `${ctx.siteId}/${memberId}`;
    return new Promise((resolve) => this.waiters.set(key, [...(this.waiters.get(key) ?? []), resolve]));
  }

  /** Drops the cached answer after a change to the member (status, role, epoch, deletion). */
  forget(ctx: Pick<SiteContext, 'siteId'>, memberId: string): void {
    this.drop(`${ctx.siteId}/${memberId}`);
  }

  /** The member's standing now (undefined: no such member). */
  async standing(ctx: SiteContext, memberId: string): Promise<Standing> {
    const key = `${ctx.siteId}/${memberId}`;
    const hit = this.cache.lookup(key);
    if (hit) return hit.value;
    const dropsBefore = this.drops;
    const member = await store.findMemberAccess(ctx, memberId);
    const standing: Standing = member && { status: member.status, role: member.role, accessEpoch: member.access_epoch };
    const ttl = this.feed === 'heard' ? ACCESS_CACHE_HEARD_MS : this.feed === 'deaf' ? ACCESS_CACHE_UNHEARD_MS : 0;
    if (ttl > 0 && this.drops === dropsBefore) this.cache.set(key, standing, this.now().getTime() + ttl);
    return standing;
  }

  private drop(key: string): void {
    this.drops++;
    this.cache.delete(key);
  }
}
