/** Identity statuses (spec §4) and the reasons a PENDING identity waits. */
export type IdentityStatus = 'PENDING' | 'ACTIVE' | 'DELETED' | 'BLOCKED' | 'OFFLINE';
export type PendingReason = 'PENDING_EMAIL_VERIFICATION_REQUIRED' | 'PENDING_ADMIN_APPROVAL_REQUIRED';
export type MemberStatus = 'PENDING' | 'APPROVED' | 'BLOCKED' | 'OFFLINE';
export type SignupPolicy = 'open' | 'email-verification' | 'owner-approval';

/** What a sign-in with correct credentials leads to. */
export type Entry = 'SUCCESS' | 'REQUIRE_EMAIL_VERIFICATION' | 'REQUIRE_OWNER_APPROVAL' | 'BLOCKED' | 'GONE';

/** A blocked, offline or unapproved member never gets SUCCESS. */
export function entryOf(identity: { status: IdentityStatus; reasons: readonly string[] }, memberStatus: MemberStatus | undefined): Entry {
  if (identity.status === 'DELETED' || !memberStatus) return 'GONE';
  if (identity.status === 'BLOCKED' || identity.status === 'OFFLINE' || memberStatus === 'BLOCKED' || memberStatus === 'OFFLINE') return 'BLOCKED';
  if (identity.reasons.includes('PENDING_EMAIL_VERIFICATION_REQUIRED')) return 'REQUIRE_EMAIL_VERIFICATION';
  if (memberStatus === 'PENDING' || identity.reasons.includes('PENDING_ADMIN_APPROVAL_REQUIRED')) return 'REQUIRE_OWNER_APPROVAL';
  return 'SUCCESS';
}

export interface InitialStatus {
  identityStatus: IdentityStatus;
  reasons: PendingReason[];
  memberStatus: MemberStatus;
}

/** A new identity's status under the site's sign-up policy. */
export function initialStatus(policy: SignupPolicy): InitialStatus {
  switch (policy) {
    case 'email-verification':
      return { identityStatus: 'PENDING', reasons: ['PENDING_EMAIL_VERIFICATION_REQUIRED'], memberStatus: 'PENDING' };
    case 'owner-approval':
      return { identityStatus: 'PENDING', reasons: ['PENDING_ADMIN_APPROVAL_REQUIRED'], memberStatus: 'PENDING' };
    default:
      return { identityStatus: 'ACTIVE', reasons: [], memberStatus: 'APPROVED' };
  }
}

/** After the e-mail is verified: what is still pending, and the member's status. */
export function afterEmailVerified(reasons: readonly string[]): InitialStatus {
  const rest = reasons.filter((r): r is PendingReason => r === 'PENDING_ADMIN_APPROVAL_REQUIRED');
  return rest.length
    ? { identityStatus: 'PENDING', reasons: rest, memberStatus: 'PENDING' }
    : { identityStatus: 'ACTIVE', reasons: [], memberStatus: 'APPROVED' };
}

const EMAIL = /^[^\s@()<>,;:"[\]\\]+@[^\s@()<>,;:"[\]\\]+\.[^\s@()<>,;:"[\]\\.]{2,}$/;
export const EMAIL_MAX_LENGTH = 254;

/** A login e-mail as stored, or undefined when it is not one. */
export function normaliseEmail(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const email = value.trim();
  if (email.length > EMAIL_MAX_LENGTH || !EMAIL.test(email) || email.includes('..')) return undefined;
  return email;
}

/** The case-insensitive key a login e-mail is unique by. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}
