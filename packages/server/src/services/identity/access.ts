// Whether a member may renew tokens, and as what (asked at every renewal), and whether their
// signed access tokens are still honoured (asked at every member call).
import type { MemberRole } from '../../platform/caller.js';
import type { SiteContext } from '../../platform/context.js';
import { TtlCache } from '../../platform/ttl-cache.js';
import type { MemberStatus } from './entry.js';
import * as store from './store.js';

const ACCESS_CACHE_MS = 2000;
const ACCESS_CACHE_SIZE = 20_000;

export type Access = { memberRole: MemberRole } | null;

/** The member row's status and role; undefined when there is none. */
type Standing = { status: MemberStatus; role: MemberRole } | undefined;

/**
 * Only APPROVED members renew tokens, with their role; a BLOCKED or OFFLINE member's access
 * tokens stop working too. Answers are kept 2 s (every renewal and member call asks); a block,
 * role change or deletion drops this server's answer at once and revokes the member's refresh
 * tokens, which are never cached, so other servers refuse within 2 s.
 */
export class MemberAccess {
  private readonly cache: TtlCache<string, Standing>;

  constructor(now: () => Date) {
    this.cache = new TtlCache({ ttlMs: ACCESS_CACHE_MS, maxSize: ACCESS_CACHE_SIZE, now });
  }

  async check(ctx: SiteContext, memberId: string): Promise<Access> {
    const member = await this.standing(ctx, memberId);
    return member?.status === 'APPROVED' ? { memberRole: member.role } : null;
  }

  /**
   * Whether a member's signed access token is still honoured: not once they are blocked or taken
   * offline. A token whose member has no row (yet, or any more: deleted) is honoured as signed
   * until it expires; deletion revokes the refresh tokens, so it cannot be renewed.
   */
  async mayCall(ctx: SiteContext, memberId: string): Promise<boolean> {
    const member = await this.standing(ctx, memberId);
    return member === undefined || (member.status !== 'BLOCKED' && member.status !== 'OFFLINE');
  }

  /** Drops the cached answer after a change to the member (status, role, deletion). */
  forget(ctx: Pick<SiteContext, 'siteId'>, memberId: string): void {
    this.cache.delete(`${ctx.siteId}/${memberId}`);
  }

  private async standing(ctx: SiteContext, memberId: string): Promise<Standing> {
    const key = `${ctx.siteId}/${memberId}`;
    const hit = this.cache.lookup(key);
    if (hit) return hit.value;
    const member = await store.findMemberAccess(ctx, memberId);
    const standing: Standing = member && { status: member.status, role: member.role };
    this.cache.set(key, standing);
    return standing;
  }
}
