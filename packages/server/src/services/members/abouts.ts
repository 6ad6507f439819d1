/**
 * A member's "about" section: one rich-content document per member, written by the member (or an
 * admin) with an optimistic revision, read by whoever may see the member.
 */
import type { RequestContext } from '../../platform/caller.js';
import { withTransaction } from '../../platform/context.js';
import { ApiError } from '../../platform/errors.js';
import { recordEvent } from '../../platform/events.js';
import { newId } from '../../platform/ids.js';
import { canSee, relationTo, selfId } from './access.js';
import { currentViewer, memberNotFound, requireSelf } from './actors.js';
import type { MemberAbout } from './model.js';
import { cursorMetadata, cursorPage, type CursorMetadata } from './paging.js';
import { checkRichContent } from './rich-content.js';
import type { AboutInput, CursorQueryInput } from './schemas.js';
import * as social from './social-store.js';
import { toWireAbout } from './social-wire.js';
import type { WireAbout } from './social-wire-schemas.js';
import * as store from './store.js';

function notFound(aboutId: string): ApiError {
  return ApiError.notFound('MEMBER_ABOUT_NOT_FOUND', `No member about ${aboutId}`, { id: aboutId });
}

function checkedContent(content: unknown): Record<string, unknown> {
  const violations = checkRichContent(content);
  if (violations.length) throw ApiError.validation(violations);
  return content as Record<string, unknown>;
}

function revisionOf(value: string | number | null | undefined): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1) {
    throw ApiError.validation([{ field: 'memberAbout.revision', rule: 'REQUIRED_FIELD', description: 'the current revision is required' }]);
  }
  return n;
}

export class AboutsService {
  /** The member whose about a write touches: oneself, or anyone for an admin. */
  private async writableMember(ctx: RequestContext, memberId: string | null | undefined): Promise<string> {
    const viewer = await currentViewer(ctx);
    if (viewer.kind === 'ADMIN') {
      const target = memberId ?? viewer.memberId;
      if (!target) throw ApiError.validation([{ field: 'memberAbout.memberId', rule: 'REQUIRED_FIELD', description: 'say whose about this is' }]);
      if (!(await store.findMember(ctx, target))) throw memberNotFound(target);
      return target;
    }
    const self = await requireSelf(ctx, { active: true });
    if (memberId && memberId !== self.memberId) throw ApiError.forbidden('A member may write only their own about');
    return self.memberId;
  }

  async create(ctx: RequestContext, input: AboutInput): Promise<{ memberAbout: WireAbout }> {
    const content = checkedContent(input.content);
    const memberId = await this.writableMember(ctx, input.memberId);
    const now = ctx.now();
    const about = await withTransaction(ctx, async (tx) => {
      const created = await social.insertAbout(tx, { aboutId: newId(), memberId, revision: 1, content, createdAt: now, updatedAt: now });
      if (!created) throw new ApiError(409, 'MEMBER_ABOUT_ALREADY_EXISTS', 'The member already has an about; update it', { memberId });
      await recordEvent(tx, { siteId: ctx.siteId, type: 'member_about.created', entityType: 'member_about', entityId: created.aboutId, payload: { memberAbout: toWireAbout(created) } });
      return created;
    });
    return { memberAbout: toWireAbout(about) };
  }

  private async ownedAbout(ctx: RequestContext, aboutId: string): Promise<MemberAbout> {
    const about = await social.findAbout(ctx, aboutId);
    if (!about) throw notFound(aboutId);
    await this.writableMember(ctx, about.memberId);
    return about;
  }

  async update(ctx: RequestContext, aboutId: string, input: AboutInput): Promise<{ memberAbout: WireAbout }> {
    const content = checkedContent(input.content);
    const expected = revisionOf(input.revision);
    await this.ownedAbout(ctx, aboutId);
    const about = await withTransaction(ctx, async (tx) => {
      const current = await social.findAbout(tx, aboutId, true);
      if (!current) throw notFound(aboutId);
      const updated = await social.updateAbout(tx, aboutId, expected, content, ctx.now());
      if (!updated) throw new ApiError(409, 'REVISION_MISMATCH', 'The about changed since it was read', { id: aboutId, revision: String(current.revision) });
      await recordEvent(tx, { siteId: ctx.siteId, type: 'member_about.updated', entityType: 'member_about', entityId: aboutId, payload: { memberAbout: toWireAbout(updated) } });
      return updated;
    });
    return { memberAbout: toWireAbout(about) };
  }

  async delete(ctx: RequestContext, aboutId: string): Promise<Record<string, never>> {
    const about = await this.ownedAbout(ctx, aboutId);
    await withTransaction(ctx, async (tx) => {
      if (await social.deleteAbout(tx, aboutId)) {
        await recordEvent(tx, { siteId: ctx.siteId, type: 'member_about.deleted', entityType: 'member_about', entityId: aboutId, payload: { memberAbout: toWireAbout(about) } });
      }
    });
    return {};
  }

  async get(ctx: RequestContext, aboutId: string): Promise<{ memberAbout: WireAbout }> {
    const viewer = await currentViewer(ctx);
    const about = await social.findAbout(ctx, aboutId);
    if (!about) throw notFound(aboutId);
    if (relationTo(viewer, about.memberId) === 'OTHER') {
      const member = await store.findMember(ctx, about.memberId);
      if (!member || !canSee(viewer, member)) throw notFound(aboutId);
    }
    return { memberAbout: toWireAbout(about) };
  }

  async getMy(ctx: RequestContext): Promise<{ memberAbout?: WireAbout }> {
    const self = await requireSelf(ctx, { active: false });
    const about = await social.findAboutOfMember(ctx, self.memberId);
    return about ? { memberAbout: toWireAbout(about) } : {};
  }

  async query(ctx: RequestContext, query: CursorQueryInput | undefined): Promise<{ memberAbouts: WireAbout[]; metadata: CursorMetadata }> {
    const viewer = await currentViewer(ctx);
    const page = cursorPage(query?.cursorPaging ?? query?.paging, 'query.cursorPaging', { filter: query?.filter, sort: query?.sort ?? query?.sorting });
    const rows = await social.queryAbouts(ctx, {
      filter: page.filter, sort: page.sort, limit: page.limit, offset: page.offset, admin: viewer.kind === 'ADMIN', selfId: selfId(viewer),
    });
    const { items, metadata } = cursorMetadata(page, rows);
    return { memberAbouts: items.map(toWireAbout), metadata };
  }
}
