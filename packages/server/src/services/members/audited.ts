// The members' staff actions the audit log records (platform/audit.ts), each in its change's transaction.
import { recordAudit, type AuditContext } from '../../platform/audit.js';
import type { MemberAction } from './transitions.js';

/** Moderation by the owner, a contributor or an API key; a member's own join/leave is not a staff action. */
const MODERATION: Partial<Record<MemberAction, string>> = {
  block: 'member.blocked', approve: 'member.approved', mute: 'member.muted', unmute: 'member.unmuted', disconnect: 'member.disconnected',
};

export async function auditModeration(ctx: AuditContext, action: MemberAction, memberId: string, before: unknown, after: unknown): Promise<void> {
  const name = MODERATION[action];
  if (name) await recordAudit(ctx, { action: name, objectType: 'member', objectId: memberId, before, after });
}

export async function auditRoleChange(ctx: AuditContext, memberId: string, from: string, to: string): Promise<void> {
  await recordAudit(ctx, { action: 'member.role_changed', objectType: 'member', objectId: memberId, before: { role: from }, after: { role: to } });
}

export async function auditDeletion(ctx: AuditContext, member: { memberId: string; loginEmail: string; role: string }): Promise<void> {
  await recordAudit(ctx, { action: 'member.deleted', objectType: 'member', objectId: member.memberId, before: { loginEmail: member.loginEmail, role: member.role } });
}
