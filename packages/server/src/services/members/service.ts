/**
 * Members: profiles, slugs, privacy, moderation, roles and deletion (spec §3, §4, §6, §7).
 * Every change runs in one transaction that locks the member row (SELECT … FOR UPDATE) and
 * records its outbox event; sign-ins end (refresh tokens revoked) right after a block,
 * disconnect, role change or delete commits.
 */
import { isUniqueViolation } from '../../platform/db.js';
import type { RequestContext } from '../../platform/caller.js';
import { withTransaction, type SiteContext } from '../../platform/context.js';
import { ApiError, type FieldViolation } from '../../platform/errors.js';
import { recordEvent } from '../../platform/events.js';
import { newId } from '../../platform/ids.js';
import type { IdentityService } from '../identity/service.js';
import type { OAuthService } from '../oauth/service.js';
import { canSee, projectionFor, relationTo, selfId, widestFieldset, type Projection, type Viewer } from './access.js';
import {
  currentViewer, memberNotFound, refusalError, requireAdmin, requireOwner, requireSelf, type AdminViewer,
} from './actors.js';
import { checkCustomFieldValues } from './custom-field-values.js';
import { AboutsService } from './abouts.js';
import { BadgesService } from './badges.js';
import { CustomFieldsService } from './custom-fields.js';
import { FollowersService } from './followers.js';
import { ReportsService } from './reports.js';
import type { CustomFieldDefinition, Fieldset, Member, MemberRole } from './model.js';
import { offsetMetadata, offsetPage, type OffsetMetadata } from './paging.js';
import type { BulkByFilterBody, ListMembersQuery, MemberInput, QueryMembersBody } from './schemas.js';
import { baseSlug, isValidSlug, SLUG_MAX_LENGTH } from './slug.js';
import * as store from './store.js';
import { canChangeRole, canDelete, transition, type DeleteActor, type MemberAction, type Refusal } from './transitions.js';
import { auditDeletion, auditModeration, auditRoleChange } from './audited.js';
import { applyPatch, memberPatchFromWire, needsDefinitions, toWireMember, type MemberPatch, type WireMember } from './wire.js';

/** Bulk calls by filter change at most this many members per call; call again for the rest. */
export const BULK_BY_FILTER_LIMIT = 10_000;

export type ContactList = 'phones' | 'emails' | 'addresses';

export interface MemberPage {
  members: WireMember[];
  metadata: OffsetMetadata;
}

/**
 * A page whose JSON text is already written (a PUBLIC page, built by PostgreSQL): the route sends
 * the text as it is, with no parse and no serialisation in node.
 */
export class SerialisedPage {
  constructor(readonly json: string) {}
}

export interface BulkItemResult {
  itemMetadata: { id: string; originalIndex: number; success: boolean; error?: { code: string; description: string; data: Record<string, unknown> } };
}

export interface BulkJobResult {
  jobId: string;
  bulkActionMetadata: { totalSuccesses: number; totalFailures: number; undetailedFailures: number };
}

const FULL: Projection = { level: 'FULL', publicCustomFieldsOnly: false, role: true };
/** What a PUBLIC page shows of every member, whoever asks (projectionFor with no wider fieldset). */
const PUBLIC: Projection = { level: 'PUBLIC', publicCustomFieldsOnly: false, role: false };

function slugViolation(slug: string, field = 'slug'): ApiError {
  return ApiError.validation([{
    field, rule: 'FORMAT', description: `must be 1 to ${SLUG_MAX_LENGTH} lower-case letters, digits and single dashes`, data: { slug },
  }]);
}

function slugTaken(slug: string): ApiError {
  return new ApiError(409, 'SLUG_ALREADY_EXISTS', `The slug "${slug}" is taken`, { slug });
}

function deleteActorOf(viewer: AdminViewer): DeleteActor {
  return viewer.role === 'APP' ? { kind: 'APP' } : { kind: viewer.role, memberId: viewer.memberId ?? '' };
}

/**
 * What the members service asks of sign-in: identities for members created here and removed with
 * deleted ones, and keeping an identity's status and sessions in step with its member (approval
 * clears the identity's wait for the owner; block and disconnect end every sign-in, session
 * tokens included).
 */
export type MemberIdentities = Pick<IdentityService, 'createIdentity' | 'deleteIdentities' | 'setMemberStatus' | 'endAllSessions' | 'forgetAccess'>;

export class MembersService {
  constructor(
    private readonly oauth: OAuthService,
    private readonly identities: MemberIdentities,
    private readonly customFields: CustomFieldsService,
  ) {}

  /** After a status change commits: the identity follows, and sign-ins end when the member may no longer enter. */
  private async syncIdentity(ctx: SiteContext, memberId: string, status: Member['status']): Promise<void> {
    try {
      await this.identities.setMemberStatus(ctx, memberId, status);
    } catch (error) {
      // A member without an identity (none yet): only tokens to end.
      if (!(error instanceof ApiError && error.code === 'MEMBER_NOT_FOUND')) throw error;
      if (status === 'BLOCKED' || status === 'OFFLINE') await this.oauth.revokeSubject(ctx, memberId);
    }
  }

  // ─── reading ─────────────────────────────────────────────────────────────────────────────────

  /** Members as the viewer may see them, loading custom field definitions only when needed. */
  private async toWire(ctx: RequestContext, members: Member[], projections: Projection[]): Promise<WireMember[]> {
    let definitions: ReadonlyMap<string, CustomFieldDefinition> = new Map();
    if (members.some((m, i) => needsDefinitions(m, projections[i]))) {
      definitions = await this.customFields.definitionsByKey(ctx, ctx.now() ?? new Date());
    }
    return members.map((m, i) => toWireMember(m, projections[i], definitions));
  }

  private async one(ctx: RequestContext, member: Member, projection: Projection = FULL): Promise<WireMember> {
    return (await this.toWire(ctx, [member], [projection]))[0];
  }

  async getMyMember(ctx: RequestContext, fieldsets: Fieldset[] | undefined): Promise<{ member: WireMember }> {
    const member = await requireSelf(ctx, { active: false });
    return { member: await this.one(ctx, member, projectionFor('SELF', fieldsets)) };
  }

  /** `ctx` is null for a caller without credentials (a public read). */
  async getMember(ctx: RequestContext, memberId: string, fieldsets: Fieldset[] | undefined): Promise<{ member: WireMember }> {
    const viewer = await currentViewer(ctx);
    const member = await store.findMember(ctx, memberId);
    // An invisible member answers exactly like a missing one.
    if (!member || !canSee(viewer, member)) throw memberNotFound(memberId);
    const projection = projectionFor(relationTo(viewer, member.memberId), fieldsets);
    return { member: (await this.toWire(ctx, [member], [projection]))[0] };
  }

  private async page(
    ctx: RequestContext, viewer: Viewer, fieldsets: Fieldset[] | undefined,
    query: { filter?: unknown; sort?: unknown; search?: unknown; paging?: { limit?: unknown; offset?: unknown } },
    paths: { filter: string; sort: string; search: string; paging: string },
  ): Promise<MemberPage | SerialisedPage> {
    const page = offsetPage(query.paging, paths.paging);
    const q = {
      filter: query.filter, sort: query.sort, search: query.search, admin: viewer.kind === 'ADMIN', selfId: selfId(viewer),
      limit: page.limit, offset: page.offset, paths,
    };
    const publicOnly = widestFieldset(fieldsets) === 'PUBLIC';
    if (publicOnly) {
      const ready = await store.queryPublicPage(ctx, q);
      if (ready) {
        const metadata = JSON.stringify(offsetMetadata(page, ready.count, ready.total));
        return new SerialisedPage(`{"members":[${ready.members}],"metadata":${metadata}}`);
      }
    }
    const { members, total } = await store.queryMembers(ctx, q);
    if (publicOnly) return { members: members.map((m) => toWireMember(m, PUBLIC, new Map())), metadata: offsetMetadata(page, members.length, total) };
    const projections = members.map((m) => projectionFor(relationTo(viewer, m.memberId), fieldsets));
    return { members: await this.toWire(ctx, members, projections), metadata: offsetMetadata(page, members.length, total) };
  }

  async listMembers(ctx: RequestContext, request: ListMembersQuery): Promise<MemberPage | SerialisedPage> {
    const viewer = await currentViewer(ctx);
    return this.page(ctx, viewer, request.fieldsets, { sort: request.sorting, paging: request.paging },
      { filter: 'filter', sort: 'sorting', search: 'search', paging: 'paging' });
  }

  async queryMembers(ctx: RequestContext, request: QueryMembersBody): Promise<MemberPage | SerialisedPage> {
    const viewer = await currentViewer(ctx);
    const query = request.query ?? {};
    return this.page(ctx, viewer, request.fieldsets,
      { filter: query.filter, sort: query.sort ?? query.sorting, search: request.search, paging: query.paging },
      { filter: 'query.filter', sort: 'query.sort', search: 'search', paging: 'query.paging' });
  }

  // ─── state changes ───────────────────────────────────────────────────────────────────────────

  /** One action of spec §4 on one member, under a row lock, with its event. */
  private async applyAction(ctx: RequestContext, memberId: string, action: MemberAction, actorMemberId: string | undefined): Promise<Member> {
    const result = await withTransaction(ctx, async (tx) => {
      const member = await store.findMember(tx, memberId, true);
      if (!member) throw memberNotFound(memberId);
      const outcome = transition(member, action, actorMemberId);
      if (!outcome.ok) throw refusalError(outcome.refusal);
      const updated = await store.updateMember(tx, memberId, { ...outcome.change, updatedAt: ctx.now() });
      if (!updated) throw memberNotFound(memberId);
      await recordEvent(tx, {
        siteId: ctx.siteId, type: outcome.event, entityType: 'member', entityId: memberId,
        payload: { memberId, from: stateOf(member), to: stateOf(updated) },
      });
      await auditModeration(tx, action, memberId, stateOf(member), stateOf(updated));
      return { updated, statusChanged: outcome.change.status !== undefined };
    });
    if (result.statusChanged) await this.syncIdentity(ctx, memberId, result.updated.status);
    return result.updated;
  }

  /** mute, unmute, approve, block, disconnect: owners, contributors and API keys. */
  async moderate(ctx: RequestContext, memberId: string, action: 'mute' | 'unmute' | 'approve' | 'block' | 'disconnect'): Promise<{ member: WireMember }> {
    const admin = await requireAdmin(ctx);
    const member = await this.applyAction(ctx, memberId, action, admin.memberId);
    return { member: await this.one(ctx, member) };
  }

  async joinCommunity(ctx: RequestContext): Promise<{ member: WireMember }> {
    const self = await requireSelf(ctx, { active: false });
    return { member: await this.one(ctx, await this.applyAction(ctx, self.memberId, 'joinCommunity', self.memberId)) };
  }

  async leaveCommunity(ctx: RequestContext): Promise<{ member: WireMember }> {
    const self = await requireSelf(ctx, { active: false });
    return { member: await this.one(ctx, await this.applyAction(ctx, self.memberId, 'leaveCommunity', self.memberId)) };
  }

  /** Bulk approve or block by filter: members the action does not apply to are skipped and counted. */
  async bulkModerate(ctx: RequestContext, filter: unknown, action: 'approve' | 'block'): Promise<BulkJobResult> {
    const admin = await requireAdmin(ctx);
    requireFilter(filter);
    const { changed, failures } = await withTransaction(ctx, async (tx) => {
      const members = await store.lockMembersMatching(tx, filter, undefined, BULK_BY_FILTER_LIMIT);
      const ids: string[] = [];
      let refused = 0;
      let event = '';
      for (const member of members) {
        const outcome = transition(member, action, admin.memberId);
        if (!outcome.ok) {
          refused++;
          continue;
        }
        event = outcome.event;
        ids.push(member.memberId);
      }
      const now = ctx.now();
      await store.updateMembersState(tx, ids, { status: action === 'approve' ? 'APPROVED' : 'BLOCKED' }, now);
      const byId = new Map(members.map((m) => [m.memberId, m]));
      for (const id of ids) {
        const from = stateOf(byId.get(id)!);
        const to = { ...from, status: action === 'approve' ? 'APPROVED' : 'BLOCKED' };
        await recordEvent(tx, { siteId: ctx.siteId, type: event, entityType: 'member', entityId: id, payload: { memberId: id, from, to } });
        await auditModeration(tx, action, id, from, to);
      }
      return { changed: ids, failures: refused };
    });
    for (const id of changed) await this.syncIdentity(ctx, id, action === 'approve' ? 'APPROVED' : 'BLOCKED');
    return { jobId: newId(), bulkActionMetadata: { totalSuccesses: changed.length, totalFailures: failures, undetailedFailures: failures } };
  }

  // ─── slugs and roles ─────────────────────────────────────────────────────────────────────────

  private async changeSlug(ctx: RequestContext, memberId: string, slug: string): Promise<Member> {
    if (!isValidSlug(slug)) throw slugViolation(slug);
    try {
      return await withTransaction(ctx, async (tx) => {
        const member = await store.findMember(tx, memberId, true);
        if (!member) throw memberNotFound(memberId);
        if (member.slug === slug) return member;
        if (await store.slugTaken(tx, slug)) throw slugTaken(slug);
        const updated = await store.updateMember(tx, memberId, { slug, updatedAt: ctx.now() });
        await recordEvent(tx, {
          siteId: ctx.siteId, type: 'member.updated', entityType: 'member', entityId: memberId,
          payload: { memberId, changedFields: ['profile.slug'], from: { slug: member.slug }, to: { slug } },
        });
        return updated!;
      });
    } catch (error) {
      // Two members taking one slug at once: the unique index decides, the loser gets the same answer.
      if (isUniqueViolation(error, 'members_slug')) throw slugTaken(slug);
      throw error;
    }
  }

  async updateMySlug(ctx: RequestContext, slug: string): Promise<{ member: WireMember }> {
    const self = await requireSelf(ctx, { active: true });
    return { member: await this.one(ctx, await this.changeSlug(ctx, self.memberId, slug)) };
  }

  async updateMemberSlug(ctx: RequestContext, memberId: string, slug: string): Promise<{ member: WireMember }> {
    await requireAdmin(ctx);
    return { member: await this.one(ctx, await this.changeSlug(ctx, memberId, slug)) };
  }

  /**
   * Roles are an owner's decision; the site always keeps at least one owner. Every call reads the
   * member's role as it is now (the token's is not trusted), so sign-ins stay open: the member's
   * next call, and their next renewed token, have the new role.
   */
  async changeRole(ctx: RequestContext, memberId: string, role: MemberRole): Promise<{ member: WireMember }> {
    await requireOwner(ctx);
    const { member, changed } = await withTransaction(ctx, async (tx) => {
      await store.lockOwners(tx);
      const target = await store.findMember(tx, memberId, true);
      if (!target) throw memberNotFound(memberId);
      const refusal = canChangeRole(target, role, await store.countOwners(tx));
      if (refusal) throw refusalError(refusal);
      const updated = await store.updateMember(tx, memberId, { role, updatedAt: ctx.now() });
      await recordEvent(tx, {
        siteId: ctx.siteId, type: 'member.role_changed', entityType: 'member', entityId: memberId,
        payload: { memberId, from: target.role, to: role },
      });
      if (target.role !== role) await auditRoleChange(tx, memberId, target.role, role);
      return { member: updated!, changed: target.role !== role };
    });
    if (changed) this.identities.forgetAccess(ctx, memberId);
    return { member: await this.one(ctx, member) };
  }

  // ─── deletion ────────────────────────────────────────────────────────────────────────────────

  private async checkAssignee(ctx: SiteContext, assigneeId: string | undefined, deleted: ReadonlySet<string>): Promise<void> {
    if (!assigneeId) return;
    if (deleted.has(assigneeId)) {
      throw ApiError.validation([{ field: 'contentAssigneeId', rule: 'VALIDATION', description: 'cannot be a member being deleted' }]);
    }
    if (!(await store.findMember(ctx, assigneeId))) {
      throw ApiError.notFound('CONTENT_ASSIGNEE_NOT_FOUND', `No member ${assigneeId} to receive the content`, { contentAssigneeId: assigneeId });
    }
  }

  /**
   * Deletes under the owner rules, each member with its identity (the e-mail may register again);
   * returns the refusal for members that may not go. The caller's transaction locked the owners
   * first (lockOwners), then the targets, so that two deletions of owners at once queue rather
   * than deadlock.
   */
  private async deleteLocked(
    tx: RequestContext, ctx: RequestContext, targets: Member[], actor: DeleteActor, contentAssigneeId: string | undefined,
  ): Promise<{ deleted: string[]; refused: Map<string, Refusal> }> {
    const refused = new Map<string, Refusal>();
    let owners = targets.some((m) => m.role === 'OWNER') ? await store.countOwners(tx) : 0;
    const deletable: Member[] = [];
    for (const target of targets) {
      const refusal = canDelete(target, actor, owners);
      if (refusal) {
        refused.set(target.memberId, refusal);
        continue;
      }
      if (target.role === 'OWNER') owners--;
      deletable.push(target);
    }
    const deleted = await store.deleteMembers(tx, deletable.map((m) => m.memberId));
    await this.identities.deleteIdentities(tx, deleted);
    for (const member of deletable) {
      await recordEvent(tx, {
        siteId: ctx.siteId, type: 'member.deleted', entityType: 'member', entityId: member.memberId,
        payload: { memberId: member.memberId, loginEmail: member.loginEmail, contentAssigneeId: contentAssigneeId ?? null },
      });
      if (actor.kind !== 'SELF') await auditDeletion(tx, member);
    }
    return { deleted, refused };
  }

  private async endSessions(ctx: SiteContext, memberIds: readonly string[]): Promise<void> {
    for (const id of memberIds) await this.identities.endAllSessions(ctx, id);
  }

  async deleteMember(ctx: RequestContext, memberId: string): Promise<Record<string, never>> {
    const admin = await requireAdmin(ctx);
    const deleted = await withTransaction(ctx, async (tx) => {
      await store.lockOwners(tx);
      const target = await store.findMember(tx, memberId, true);
      if (!target) throw memberNotFound(memberId);
      const { deleted, refused } = await this.deleteLocked(tx, ctx, [target], deleteActorOf(admin), undefined);
      const refusal = refused.get(memberId);
      if (refusal) throw refusalError(refusal);
      return deleted;
    });
    await this.endSessions(ctx, deleted);
    return {};
  }

  async deleteMyMember(ctx: RequestContext, contentAssigneeId: string | undefined): Promise<Record<string, never>> {
    const self = await requireSelf(ctx, { active: false });
    await this.checkAssignee(ctx, contentAssigneeId, new Set([self.memberId]));
    const deleted = await withTransaction(ctx, async (tx) => {
      await store.lockOwners(tx);
      const target = await store.findMember(tx, self.memberId, true);
      if (!target) throw memberNotFound(self.memberId);
      const { deleted, refused } = await this.deleteLocked(tx, ctx, [target], { kind: 'SELF', memberId: self.memberId }, contentAssigneeId);
      const refusal = refused.get(self.memberId);
      if (refusal) throw refusalError(refusal);
      return deleted;
    });
    await this.endSessions(ctx, deleted);
    return {};
  }

  /** Up to 100 ids; each reports its own outcome. */
  async bulkDeleteMembers(ctx: RequestContext, memberIds: string[]): Promise<{ results: BulkItemResult[]; bulkActionMetadata: BulkJobResult['bulkActionMetadata'] }> {
    const admin = await requireAdmin(ctx);
    const { deleted, refused, found } = await withTransaction(ctx, async (tx) => {
      await store.lockOwners(tx);
      const targets = await store.findMembers(tx, [...new Set(memberIds)], true);
      const outcome = await this.deleteLocked(tx, ctx, targets, deleteActorOf(admin), undefined);
      return { ...outcome, found: new Set(targets.map((m) => m.memberId)) };
    });
    await this.endSessions(ctx, deleted);
    const done = new Set(deleted);
    const reported = new Set<string>();
    const results = memberIds.map((id, originalIndex): BulkItemResult => {
      const refusal = refused.get(id);
      if (done.has(id) && !reported.has(id)) {
        reported.add(id);
        return { itemMetadata: { id, originalIndex, success: true } };
      }
      const error = refusal
        ? { code: refusal.code, description: refusal.description, data: refusal.data }
        : found.has(id)
          ? { code: 'DUPLICATE_MEMBER_ID', description: 'The id appears earlier in the request', data: { memberId: id } }
          : { code: 'MEMBER_NOT_FOUND', description: `No member ${id}`, data: { memberId: id } };
      return { itemMetadata: { id, originalIndex, success: false, error } };
    });
    const totalSuccesses = results.filter((r) => r.itemMetadata.success).length;
    return { results, bulkActionMetadata: { totalSuccesses, totalFailures: results.length - totalSuccesses, undetailedFailures: 0 } };
  }

  async bulkDeleteMembersByFilter(ctx: RequestContext, request: BulkByFilterBody): Promise<BulkJobResult> {
    const admin = await requireAdmin(ctx);
    requireFilter(request.filter);
    const { deleted, refused } = await withTransaction(ctx, async (tx) => {
      await store.lockOwners(tx);
      // The caller never deletes themself by a filter; deleteMyMember is for that.
      const targets = (await store.lockMembersMatching(tx, request.filter, request.search, BULK_BY_FILTER_LIMIT))
        .filter((m) => m.memberId !== admin.memberId);
      await this.checkAssignee(tx, request.contentAssigneeId, new Set(targets.map((m) => m.memberId)));
      return this.deleteLocked(tx, ctx, targets, deleteActorOf(admin), request.contentAssigneeId);
    });
    await this.endSessions(ctx, deleted);
    return { jobId: newId(), bulkActionMetadata: { totalSuccesses: deleted.length, totalFailures: refused.size, undetailedFailures: refused.size } };
  }

  // ─── create and update ───────────────────────────────────────────────────────────────────────

  /** Checks custom field values against the definitions; URL failures are the official application error. */
  private async checkedCustomFields(ctx: RequestContext, patch: MemberPatch, violations: FieldViolation[]): Promise<Record<string, string | number | null>> {
    if (!patch.contact.customFields) {
      if (violations.length) throw ApiError.validation(violations);
      return {};
    }
    const definitions = await this.customFields.definitionsByKey(ctx, ctx.now());
    const checked = checkCustomFieldValues(patch.contact.customFields, definitions);
    const all = [...violations, ...checked.violations];
    if (all.length) throw ApiError.validation(all);
    if (Object.keys(checked.invalidUrls).length) {
      throw new ApiError(400, 'INVALID_CUSTOM_FIELD_URL', 'A custom field holds an invalid URL', { fields: checked.invalidUrls });
    }
    return checked.values;
  }

  /**
   * Creates an approved member with an identity that has no password yet (sign-in asks them to
   * set one: the recovery e-mail), then applies the fields sent.
   */
  async createMember(ctx: RequestContext, input: MemberInput | undefined): Promise<{ member: WireMember }> {
    await requireAdmin(ctx);
    const { patch, violations } = memberPatchFromWire(input);
    if (!patch.loginEmail && !violations.some((v) => v.field === 'member.loginEmail')) {
      violations.push({ field: 'member.loginEmail', rule: 'REQUIRED_FIELD', description: 'a member needs a login e-mail' });
    }
    if (patch.slug !== undefined && !isValidSlug(patch.slug)) throw slugViolation(patch.slug, 'member.profile.slug');
    const customFields = await this.checkedCustomFields(ctx, patch, violations);
    const loginEmail = patch.loginEmail!;
    const emailTaken = () => new ApiError(409, 'EMAIL_ALREADY_EXISTS', `A member with the login e-mail ${loginEmail} exists`, { loginEmail });
    try {
      const member = await withTransaction(ctx, async (tx) => {
        await store.lockLoginEmail(tx, loginEmail);
        if (await store.loginEmailTaken(tx, loginEmail)) throw emailTaken();
        const identity = await this.identities.createIdentity(tx, {
          email: loginEmail,
          passwordHash: null,
          status: { identityStatus: 'ACTIVE', reasons: [], memberStatus: 'APPROVED' },
          role: 'MEMBER',
          emailVerified: false,
          profile: { nickname: patch.profile.nickname ?? baseSlug(undefined, loginEmail), privacyStatus: patch.privacyStatus ?? 'PRIVATE' },
        });
        if (!identity) throw emailTaken();
        const created = await store.findMember(tx, identity.identity_id, true);
        if (!created) throw memberNotFound(identity.identity_id);
        if (patch.slug !== undefined && patch.slug !== created.slug && (await store.slugTaken(tx, patch.slug))) throw slugTaken(patch.slug);
        const { profile, contact } = applyPatch(created, patch, customFields, newId);
        return (await store.updateMember(tx, created.memberId, {
          profile, contact, slug: patch.slug, privacyStatus: patch.privacyStatus, updatedAt: created.updatedAt,
        }))!;
      });
      return { member: await this.one(ctx, member) };
    } catch (error) {
      if (isUniqueViolation(error, 'members_slug')) throw slugTaken(patch.slug ?? '');
      throw error;
    }
  }

  /** Only the fields sent change. A member may update themself; admins anyone. */
  async updateMember(ctx: RequestContext, memberId: string, input: MemberInput): Promise<{ member: WireMember }> {
    const viewer = await currentViewer(ctx);
    const relation = relationTo(viewer, memberId);
    if (relation === 'OTHER') throw ApiError.forbidden('A member may update only themself');
    if (relation === 'SELF') await requireSelf(ctx, { active: true });
    const { patch, violations } = memberPatchFromWire(input);
    if (patch.slug !== undefined && !isValidSlug(patch.slug)) throw slugViolation(patch.slug, 'member.profile.slug');
    const customFields = await this.checkedCustomFields(ctx, patch, violations);
    try {
      const member = await withTransaction(ctx, async (tx) => {
        const current = await store.findMember(tx, memberId, true);
        if (!current) throw memberNotFound(memberId);
        if (patch.loginEmail && patch.loginEmail.toLowerCase() !== current.loginEmail.toLowerCase()) {
          throw ApiError.validation([{ field: 'member.loginEmail', rule: 'FIELD_NOT_ALLOWED', description: 'the login e-mail cannot change here' }]);
        }
        const changedFields: string[] = [];
        let privacyEvent: string | undefined;
        let privacyStatus = current.privacyStatus;
        if (patch.privacyStatus && patch.privacyStatus !== current.privacyStatus) {
          const outcome = transition(current, patch.privacyStatus === 'PUBLIC' ? 'joinCommunity' : 'leaveCommunity', selfId(viewer));
          if (!outcome.ok) throw refusalError(outcome.refusal);
          privacyStatus = patch.privacyStatus;
          privacyEvent = outcome.event;
        }
        let slug: string | undefined;
        if (patch.slug !== undefined && patch.slug !== current.slug) {
          if (await store.slugTaken(tx, patch.slug)) throw slugTaken(patch.slug);
          slug = patch.slug;
          changedFields.push('profile.slug');
        }
        const { profile, contact } = applyPatch(current, patch, customFields, newId);
        if (JSON.stringify(profile) !== JSON.stringify(current.profile)) changedFields.push('profile');
        if (JSON.stringify(contact) !== JSON.stringify(current.contact)) changedFields.push('contact');
        if (changedFields.length === 0 && !privacyEvent) return current;
        const updated = await store.updateMember(tx, memberId, { profile, contact, slug, privacyStatus, updatedAt: ctx.now() });
        if (changedFields.length) {
          await recordEvent(tx, { siteId: ctx.siteId, type: 'member.updated', entityType: 'member', entityId: memberId, payload: { memberId, changedFields } });
        }
        if (privacyEvent) {
          await recordEvent(tx, {
            siteId: ctx.siteId, type: privacyEvent, entityType: 'member', entityId: memberId,
            payload: { memberId, from: stateOf(current), to: stateOf(updated!) },
          });
        }
        return updated!;
      });
      return { member: await this.one(ctx, member) };
    } catch (error) {
      if (isUniqueViolation(error, 'members_slug')) throw slugTaken(patch.slug ?? '');
      throw error;
    }
  }

  /** Clears one contact list (the wire's delete phones / e-mails / addresses). */
  async clearContactList(ctx: RequestContext, memberId: string, list: ContactList): Promise<{ member: WireMember }> {
    const viewer = await currentViewer(ctx);
    const relation = relationTo(viewer, memberId);
    if (relation === 'OTHER') throw ApiError.forbidden('A member may change only themself');
    if (relation === 'SELF') await requireSelf(ctx, { active: true });
    const member = await withTransaction(ctx, async (tx) => {
      const current = await store.findMember(tx, memberId, true);
      if (!current) throw memberNotFound(memberId);
      if (current.contact[list].length === 0) return current;
      const updated = await store.updateMember(tx, memberId, { contact: { ...current.contact, [list]: [] }, updatedAt: ctx.now() });
      await recordEvent(tx, {
        siteId: ctx.siteId, type: 'member.updated', entityType: 'member', entityId: memberId, payload: { memberId, changedFields: [`contact.${list}`] },
      });
      return updated!;
    });
    return { member: await this.one(ctx, member) };
  }
}

function stateOf(member: Member): { status: string; activityStatus: string; privacyStatus: string } {
  return { status: member.status, activityStatus: member.activityStatus, privacyStatus: member.privacyStatus };
}

function requireFilter(filter: unknown): void {
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) {
    throw ApiError.validation([{ field: 'filter', rule: 'REQUIRED_FIELD', description: 'a filter object is required ({} matches every member)' }]);
  }
}

// ─── the members module ─────────────────────────────────────────────────────────────────────────

/** Everything the members routes use, built once per app. */
export interface MembersServices {
  members: MembersService;
  customFields: CustomFieldsService;
  badges: BadgesService;
  followers: FollowersService;
  reports: ReportsService;
  abouts: AboutsService;
}

export function createMembersServices(oauth: OAuthService, identities: MemberIdentities): MembersServices {
  const customFields = new CustomFieldsService();
  return {
    members: new MembersService(oauth, identities, customFields),
    customFields,
    badges: new BadgesService(),
    followers: new FollowersService(),
    reports: new ReportsService(),
    abouts: new AboutsService(),
  };
}

// For the back office (services/backoffice): search and export batches.
export * as membersBackOffice from './back-office.js';
export type { MemberRecord } from './back-office.js';
