/** Follows between members: a member follows another they can see; lists page by cursor. */
import type { Static } from 'typebox';
import type { RequestContext } from '../../platform/caller.js';
import { withTransaction } from '../../platform/context.js';
import { ApiError } from '../../platform/errors.js';
import { recordEvent } from '../../platform/events.js';
import { canSee, selfId, type Viewer } from './access.js';
import { currentViewer, memberNotFound, requireSelf } from './actors.js';
import { cursorMetadata, cursorPage, type CursorRequest } from './paging.js';
import * as social from './social-store.js';
import type { FollowersPage, MemberConnections } from './social-wire-schemas.js';
import * as store from './store.js';

export type FollowDirection = 'followers' | 'following';

export class FollowersService {
  async follow(ctx: RequestContext, memberId: string): Promise<Record<string, never>> {
    const self = await requireSelf(ctx, { active: true });
    if (memberId === self.memberId) {
      throw new ApiError(400, 'SELF_FOLLOW_FORBIDDEN', 'A member cannot follow themself', { memberId });
    }
    const viewer = await currentViewer(ctx);
    await withTransaction(ctx, async (tx) => {
      const target = await store.findMember(tx, memberId);
      if (!target || !canSee(viewer, target)) throw memberNotFound(memberId);
      if (await social.follow(tx, self.memberId, memberId, ctx.now())) {
        await recordEvent(tx, {
          siteId: ctx.siteId, type: 'follow.member_followed', entityType: 'follow', entityId: memberId,
          payload: { memberConnection: { memberId: self.memberId, affectedMemberId: memberId } },
        });
      }
    });
    return {};
  }

  async unfollow(ctx: RequestContext, memberId: string): Promise<Record<string, never>> {
    const self = await requireSelf(ctx, { active: false });
    await withTransaction(ctx, async (tx) => {
      if (await social.unfollow(tx, self.memberId, memberId)) {
        await recordEvent(tx, {
          siteId: ctx.siteId, type: 'follow.member_unfollowed', entityType: 'follow', entityId: memberId,
          payload: { memberConnection: { memberId: self.memberId, affectedMemberId: memberId } },
        });
      }
    });
    return {};
  }

  /** The member whose lists are read: oneself, or a member the viewer may see. */
  private async subject(ctx: RequestContext, viewer: Viewer, memberId: string | 'my'): Promise<string> {
    if (memberId === 'my') {
      if (!ctx) throw ApiError.unauthenticated('This call needs a signed-in member');
      return (await requireSelf(ctx, { active: false })).memberId;
    }
    const member = await store.findMember(ctx, memberId);
    if (!member || !canSee(viewer, member)) throw memberNotFound(memberId);
    return member.memberId;
  }

  async list(
    ctx: RequestContext, memberId: string | 'my', direction: FollowDirection, paging: CursorRequest | undefined,
  ): Promise<Static<typeof FollowersPage>> {
    const viewer = await currentViewer(ctx);
    const subject = await this.subject(ctx, viewer, memberId);
    const page = cursorPage(paging, 'paging');
    const rows = await social.followList(ctx, subject, direction, {
      limit: page.limit, offset: page.offset, admin: viewer.kind === 'ADMIN', selfId: selfId(viewer),
    });
    const { items, metadata } = cursorMetadata(page, rows);
    return { memberIds: items, pagingMetadata: metadata };
  }

  /** For each given member: does the subject follow them, do they follow the subject. */
  async connections(ctx: RequestContext, memberId: string | 'my', connectedMemberIds: string[]): Promise<Static<typeof MemberConnections>> {
    const viewer = await currentViewer(ctx);
    const subject = await this.subject(ctx, viewer, memberId);
    const ids = [...new Set(connectedMemberIds)];
    const visible = (await store.findMembers(ctx, ids)).filter((m) => canSee(viewer, m)).map((m) => m.memberId);
    const visibleSet = new Set(visible);
    const { followedBy, following } = await social.connections(ctx, subject, visible);
    return {
      connectedMembers: ids.filter((id) => visibleSet.has(id)).map((id) => ({
        connectedMemberId: id,
        followedByMember: followedBy.has(id),
        followingMember: following.has(id),
      })),
    };
  }
}
