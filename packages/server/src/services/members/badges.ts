/** Badges: owners define them and hand them to members; anyone may read them. */
import type { RequestContext } from '../../platform/caller.js';
import { withTransaction, type SiteContext } from '../../platform/context.js';
import { ApiError, type FieldViolation } from '../../platform/errors.js';
import { recordEvent } from '../../platform/events.js';
import { newId } from '../../platform/ids.js';
import { selfId } from './access.js';
import { currentViewer, requireAdmin } from './actors.js';
import { isUniqueViolation } from '../../platform/db.js';
import { isHttpUrl } from './custom-field-values.js';
import type { Badge } from './model.js';
import { offsetMetadata, offsetPage, type OffsetMetadata } from './paging.js';
import type { BadgeInput } from './schemas.js';
import { slugify } from './slug.js';
import * as social from './social-store.js';
import { toWireBadge } from './social-wire.js';
import type { WireBadge } from './social-wire-schemas.js';
import * as store from './store.js';

const DEFAULT_BACKGROUND = '#796EFF';
const DEFAULT_TEXT = '#FFFFFF';
const COLOR = /^#[0-9A-Fa-f]{6}$/;

function notFound(badgeId: string): ApiError {
  return ApiError.notFound('BADGE_NOT_FOUND', `No badge ${badgeId}`, { badgeId });
}

/** The badge fields of a create or update, checked; `current` is the badge being updated. */
function badgeFields(input: BadgeInput, current: Badge | undefined): Pick<Badge, 'title' | 'description' | 'backgroundColor' | 'textColor' | 'icon' | 'permissionsEnabled'> {
  const violations: FieldViolation[] = [];
  const title = input.title === undefined ? current?.title : input.title?.trim() ?? '';
  if (!title) violations.push({ field: 'badge.title', rule: 'REQUIRED_FIELD', description: 'a badge needs a title' });
  const color = (value: string | null | undefined, field: string, fallback: string): string => {
    if (value === undefined || value === null || value === '') return fallback;
    if (!COLOR.test(value)) violations.push({ field, rule: 'FORMAT', description: 'must be a colour "#RRGGBB"' });
    return value.toUpperCase();
  };
  const backgroundColor = color(input.backgroundColor, 'badge.backgroundColor', current?.backgroundColor ?? DEFAULT_BACKGROUND);
  const textColor = color(input.textColor, 'badge.textColor', current?.textColor ?? DEFAULT_TEXT);
  let icon = current?.icon ?? null;
  if (input.icon !== undefined) {
    icon = input.icon === null || input.icon === '' ? null : input.icon;
    if (icon !== null && !isHttpUrl(icon)) violations.push({ field: 'badge.icon', rule: 'FORMAT', description: 'must be an http(s) URL of an SVG image' });
  }
  const description = input.description === undefined ? current?.description ?? null : input.description?.trim() || null;
  const permissionsEnabled = input.permissionsEnabled ?? current?.permissionsEnabled ?? false;
  if (violations.length) throw ApiError.validation(violations);
  return { title: title!, description, backgroundColor, textColor, icon, permissionsEnabled };
}

export class BadgesService {
  private async slugFor(ctx: SiteContext, title: string): Promise<string[]> {
    const base = slugify(title) || 'badge';
    const taken = await social.badgeSlugsLike(ctx, base);
    return Array.from({ length: 50 }, (_, i) => (i === 0 ? base : `${base}-${i + 1}`)).filter((s) => !taken.has(s)).slice(0, 5);
  }

  async create(ctx: RequestContext, input: BadgeInput): Promise<{ badge: WireBadge }> {
    await requireAdmin(ctx);
    const fields = badgeFields(input, undefined);
    const now = ctx.now();
    for (const slug of await this.slugFor(ctx, fields.title)) {
      const badge = await withTransaction(ctx, async (tx) => {
        const created = await social.insertBadge(tx, { ...fields, badgeId: newId(), slug, position: 0, createdAt: now, updatedAt: now });
        if (created) await recordEvent(tx, { siteId: ctx.siteId, type: 'badge.created', entityType: 'badge', entityId: created.badgeId, payload: { badge: toWireBadge(created) } });
        return created;
      });
      if (badge) return { badge: toWireBadge(badge) };
    }
    throw new ApiError(409, 'BADGE_SLUG_TAKEN', 'Too many badges share this title', { title: fields.title });
  }

  async update(ctx: RequestContext, badgeId: string, input: BadgeInput): Promise<{ badge: WireBadge }> {
    await requireAdmin(ctx);
    const current = await social.findBadge(ctx, badgeId);
    if (!current) throw notFound(badgeId);
    const fields = badgeFields(input, current);
    const slugs = fields.title === current.title ? [current.slug] : await this.slugFor(ctx, fields.title);
    try {
      const badge = await withTransaction(ctx, async (tx) => {
        const locked = await social.findBadge(tx, badgeId, true);
        if (!locked) throw notFound(badgeId);
        const slug = slugs[0] ?? `${slugify(fields.title) || 'badge'}-${newId().slice(0, 8)}`;
        const updated = await social.updateBadge(tx, { ...locked, ...fields, slug, updatedAt: ctx.now() });
        await recordEvent(tx, { siteId: ctx.siteId, type: 'badge.updated', entityType: 'badge', entityId: badgeId, payload: { badge: toWireBadge(updated!) } });
        return updated!;
      });
      return { badge: toWireBadge(badge) };
    } catch (error) {
      // Another badge took the new title's slug meanwhile.
      if (isUniqueViolation(error, 'member_badges_slug')) throw new ApiError(409, 'BADGE_SLUG_TAKEN', 'Another badge has this title', { title: fields.title });
      throw error;
    }
  }

  async get(ctx: SiteContext, badgeId: string): Promise<{ badge: WireBadge }> {
    const badge = await social.findBadge(ctx, badgeId);
    if (!badge) throw notFound(badgeId);
    return { badge: toWireBadge(badge) };
  }

  async list(ctx: SiteContext, paging: { limit?: unknown; offset?: unknown } | undefined): Promise<{ badges: WireBadge[]; metadata: OffsetMetadata }> {
    const page = offsetPage(paging, 'paging', 1000);
    const { badges, total } = await social.listBadges(ctx, page.limit, page.offset);
    return { badges: badges.map(toWireBadge), metadata: offsetMetadata(page, badges.length, total) };
  }

  async delete(ctx: RequestContext, badgeId: string): Promise<Record<string, never>> {
    await requireAdmin(ctx);
    await withTransaction(ctx, async (tx) => {
      const badge = await social.findBadge(tx, badgeId, true);
      if (!badge) throw notFound(badgeId);
      const holders = await social.deleteBadge(tx, badgeId);
      await recordEvent(tx, { siteId: ctx.siteId, type: 'badge.deleted', entityType: 'badge', entityId: badgeId, payload: { badge: toWireBadge(badge), memberIds: holders } });
    });
    return {};
  }

  async assign(ctx: RequestContext, badgeId: string, memberIds: string[]): Promise<{ memberIds: string[] }> {
    await requireAdmin(ctx);
    const ids = [...new Set(memberIds)];
    await withTransaction(ctx, async (tx) => {
      if (!(await social.findBadge(tx, badgeId, true))) throw notFound(badgeId);
      const found = new Set((await store.findMembers(tx, ids)).map((m) => m.memberId));
      const missing = ids.filter((id) => !found.has(id));
      if (missing.length) throw ApiError.notFound('MEMBER_NOT_FOUND', `No member ${missing.join(', ')}`, { memberIds: missing });
      const added = await social.assignBadge(tx, badgeId, ids, ctx.now());
      for (const memberId of added) {
        await recordEvent(tx, { siteId: ctx.siteId, type: 'badge.assigned', entityType: 'badge', entityId: badgeId, payload: { badgeId, memberId } });
      }
    });
    return { memberIds: ids };
  }

  async unassign(ctx: RequestContext, badgeId: string, memberIds: string[]): Promise<Record<string, never>> {
    await requireAdmin(ctx);
    await withTransaction(ctx, async (tx) => {
      if (!(await social.findBadge(tx, badgeId, true))) throw notFound(badgeId);
      const removed = await social.unassignBadge(tx, badgeId, [...new Set(memberIds)]);
      for (const memberId of removed) {
        await recordEvent(tx, { siteId: ctx.siteId, type: 'badge.unassigned', entityType: 'badge', entityId: badgeId, payload: { badgeId, memberId } });
      }
    });
    return {};
  }

  /** Holders of a badge; others see only members they may see. */
  async listMembers(ctx: RequestContext, badgeId: string, paging: { limit?: unknown; offset?: unknown } | undefined): Promise<{ memberIds: string[]; metadata: OffsetMetadata }> {
    const viewer = await currentViewer(ctx);
    const page = offsetPage(paging, 'paging', 1000);
    if (!(await social.findBadge(ctx, badgeId))) throw notFound(badgeId);
    const { memberIds, total } = await social.badgeHolders(ctx, badgeId, { ...page, admin: viewer.kind === 'ADMIN', selfId: selfId(viewer) });
    return { memberIds, metadata: offsetMetadata(page, memberIds.length, total) };
  }

  async badgesPerMember(ctx: RequestContext, memberIds: string[]): Promise<{ memberBadgeIds: { memberId: string; badgeIds: string[] }[] }> {
    const viewer = await currentViewer(ctx);
    const ids = [...new Set(memberIds)];
    const members = await store.findMembers(ctx, ids);
    const visible = new Set(members
      .filter((m) => viewer.kind === 'ADMIN' || m.memberId === selfId(viewer) || (m.status === 'APPROVED' && m.privacyStatus === 'PUBLIC'))
      .map((m) => m.memberId));
    const byMember = await social.badgesOfMembers(ctx, ids.filter((id) => visible.has(id)));
    return { memberBadgeIds: ids.filter((id) => visible.has(id)).map((memberId) => ({ memberId, badgeIds: byMember.get(memberId) ?? [] })) };
  }

  async memberCounts(ctx: SiteContext): Promise<{ badgeMemberCounts: { badgeId: string; memberCount: number }[] }> {
    return { badgeMemberCounts: await social.badgeMemberCounts(ctx) };
  }

  async reorder(ctx: RequestContext, badgeIds: string[]): Promise<{ badges: WireBadge[] }> {
    await requireAdmin(ctx);
    if (new Set(badgeIds).size !== badgeIds.length) throw ApiError.validation([{ field: 'badgeIds', rule: 'VALIDATION', description: 'must not repeat an id' }]);
    const { badges: all } = await social.listBadges(ctx, 100_000, 0);
    const known = new Set(all.map((b) => b.badgeId));
    const missing = badgeIds.find((id) => !known.has(id));
    if (missing) throw notFound(missing);
    const order = [...badgeIds, ...all.map((b) => b.badgeId).filter((id) => !badgeIds.includes(id))];
    await withTransaction(ctx, async (tx) => {
      await social.setBadgePositions(tx, order, ctx.now());
      await recordEvent(tx, { siteId: ctx.siteId, type: 'badge.reordered', entityType: 'badge', entityId: ctx.siteId, payload: { badgeIds: order } });
    });
    const { badges } = await social.listBadges(ctx, 100_000, 0);
    return { badges: badges.map(toWireBadge) };
  }
}
