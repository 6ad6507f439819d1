// Whether a member may renew tokens, and as what: asked at every member token renewal.
import type { MemberRole } from '../../platform/caller.js';
import type { SiteContext } from '../../platform/context.js';
import { TtlCache } from '../../platform/ttl-cache.js';
import * as store from './store.js';

const ACCESS_CACHE_MS = 2000;
const ACCESS_CACHE_SIZE = 20_000;

export type Access = { memberRole: MemberRole } | null;

/**
 * Only APPROVED members renew tokens, with their role. Answers are kept 2 s (every renewal
 * asks); a block, role change or deletion also revokes the member's refresh tokens, which are
 * never cached, so it takes effect at once on every server.
 */
export class MemberAccess {
  private readonly cache: TtlCache<string, Access>;

  constructor(now: () => Date) {
    this.cache = new TtlCache({ ttlMs: ACCESS_CACHE_MS, maxSize: ACCESS_CACHE_SIZE, now });
  }

  async check(ctx: SiteContext, memberId: string): Promise<Access> {
    const key = `${ctx.siteId}/${memberId}`;
    const hit = this.cache.lookup(key);
    if (hit) return hit.value;
    const member = await store.findMemberAccess(ctx, memberId);
    const access = member?.status === 'APPROVED' ? { memberRole: member.role } : null;
    this.cache.set(key, access);
    return access;
  }

  /** Drops the cached answer after a change to the member (status, role, deletion). */
  forget(ctx: Pick<SiteContext, 'siteId'>, memberId: string): void {
    this.cache.delete(`${ctx.siteId}/${memberId}`);
  }
}
