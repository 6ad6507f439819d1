// Identities and the members they come with: creating them, and keeping their statuses in step.
import { randomBytes } from 'node:crypto';
import { withTransaction, type SiteContext } from '../../platform/context.js';
import { ApiError } from '../../platform/errors.js';
import { recordEvent } from '../../platform/events.js';
import { newId } from '../../platform/ids.js';
import type { CreateSiteInput } from '../sites/service.js';
import type { MemberAccess } from './access.js';
import type { IdentityDeps } from './deps.js';
import { afterEmailVerified, emailKey, initialStatus, normaliseEmail, type MemberStatus } from './entry.js';
import { memberShapes, slugBase } from './member-profile.js';
import { emailViolation, notFound, type NewIdentityInput } from './model.js';
import { hashPassword, passwordViolations } from './passwords.js';
import { endAllSessions } from './sessions.js';
import * as store from './store.js';

/** Creates an identity and its member in the context's transaction; undefined if the e-mail is taken. */
export async function createIdentity(ctx: SiteContext, input: NewIdentityInput): Promise<store.IdentityRow | undefined> {
  const now = ctx.now();
  const identityId = newId();
  const privacy = input.profile.privacyStatus;
  const created = await store.insertIdentity(ctx, {
    identityId,
    loginEmail: input.email,
    emailKey: emailKey(input.email),
    passwordHash: input.passwordHash,
    status: input.status.identityStatus,
    reasons: input.status.reasons,
    emailVerified: input.emailVerified,
    privacyStatus: privacy === 'PUBLIC' || privacy === 'PRIVATE' ? privacy : 'UNDEFINED',
    profile: input.profile,
    now,
  });
  if (!created) return undefined;
  const shapes = memberShapes(input.email, input.profile);
  const base = slugBase(String(shapes.profile.nickname));
  let slug = base;
  for (let i = 0; i < 5 && (await store.slugTaken(ctx, slug)); i++) slug = `${base}-${randomBytes(3).toString('hex')}`;
  const memberInput = {
    memberId: identityId, loginEmail: input.email, status: input.status.memberStatus, role: input.role,
    privacyStatus: privacy === 'PUBLIC' ? ('PUBLIC' as const) : ('PRIVATE' as const), profile: shapes.profile, contact: shapes.contact, now,
  };
  // Two sign-ups may pick the same free slug at once: the loser takes a random suffix.
  let member = await store.insertMember(ctx, { ...memberInput, slug });
  while (!member) {
    slug = `${base}-${randomBytes(4).toString('hex')}`;
    member = await store.insertMember(ctx, { ...memberInput, slug });
  }
  await recordEvent(ctx, {
    siteId: ctx.siteId,
    type: 'member.created',
    entityType: 'member',
    entityId: identityId,
    payload: { memberId: identityId, loginEmail: input.email, status: member.status, role: member.role, slug, createdDate: now.toISOString() },
  });
  return store.findIdentity(ctx, identityId);
}

/** Site initializer: `sites create --owner-email E --owner-password W` makes an APPROVED OWNER. */
export async function createOwner(ctx: SiteContext, input: CreateSiteInput): Promise<void> {
  if (input.ownerEmail === undefined) return;
  const email = normaliseEmail(input.ownerEmail);
  const violations = [
    ...(email ? [] : [{ ...emailViolation(), field: 'ownerEmail' }]),
    ...passwordViolations(input.ownerPassword, 'ownerPassword'),
  ];
  if (!email || violations.length) throw ApiError.validation(violations);
  await createIdentity(ctx, {
    email,
    passwordHash: await hashPassword(input.ownerPassword as string),
    status: initialStatus('open'),
    role: 'OWNER',
    emailVerified: true,
    profile: { nickname: 'Owner' },
  });
}

/** Marks the e-mail verified; a member waiting only for that becomes APPROVED. */
export async function completeEmailVerification(access: MemberAccess, ctx: SiteContext, identityId: string): Promise<store.IdentityRow> {
  const row = await store.findIdentity(ctx, identityId, true);
  if (!row) throw notFound();
  const now = ctx.now();
  if (!row.status_reasons.includes('PENDING_EMAIL_VERIFICATION_REQUIRED')) {
    await store.markEmailVerified(ctx, identityId, now);
    return (await store.findIdentity(ctx, identityId)) ?? row;
  }
  const next = afterEmailVerified(row.status_reasons);
  const updated = await store.updateIdentityStatus(ctx, identityId, { status: next.identityStatus, reasons: next.reasons, emailVerified: true, now });
  if (next.memberStatus === 'APPROVED') await changeMemberStatus(access, ctx, identityId, 'APPROVED', 'PENDING');
  return updated ?? row;
}

/** Changes the member row (optionally only from `onlyFrom`) and records `member.status_changed`. */
async function changeMemberStatus(
  access: MemberAccess, ctx: SiteContext, memberId: string, status: MemberStatus, onlyFrom?: MemberStatus,
): Promise<MemberStatus | undefined> {
  const current = await store.findMemberAccess(ctx, memberId);
  if (!current || (onlyFrom && current.status !== onlyFrom)) return current?.status;
  const changed = await store.updateMemberStatus(ctx, memberId, status, ctx.now());
  access.forget(ctx, memberId);
  if (changed && changed.previous !== status) {
    await recordEvent(ctx, {
      siteId: ctx.siteId, type: 'member.status_changed', entityType: 'member', entityId: memberId,
      payload: { memberId, status, previousStatus: changed.previous },
    });
  }
  return changed?.previous;
}

/**
 * Approves, blocks or takes offline a member, keeping the identity in step. Blocking ends
 * every sign-in at once: refresh tokens stop working and session tokens are revoked.
 */
export async function setMemberStatus(deps: IdentityDeps, ctx: SiteContext, memberId: string, status: MemberStatus): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const row = await store.findIdentity(tx, memberId, true);
    const previous = await changeMemberStatus(deps.access, tx, memberId, status);
    if (!row || !previous) throw ApiError.notFound('MEMBER_NOT_FOUND', 'No such member');
    const now = tx.now();
    if (status === 'BLOCKED' || status === 'OFFLINE') {
      await store.updateIdentityStatus(tx, memberId, { status, reasons: row.status_reasons, now });
    } else if (status === 'APPROVED') {
      const reasons = row.status_reasons.filter((r) => r !== 'PENDING_ADMIN_APPROVAL_REQUIRED');
      await store.updateIdentityStatus(tx, memberId, { status: reasons.length ? 'PENDING' : 'ACTIVE', reasons, now });
    }
  });
  deps.access.forget(ctx, memberId);
  if (status !== 'APPROVED' && status !== 'PENDING') await endAllSessions(deps, ctx, memberId);
}
