/**
 * Member state machine (spec §4), pure. The spec names the states and actions but not the
 * allowed moves; Bodega's are:
 *
 *   status      approve: PENDING | BLOCKED → APPROVED      (approve lifts a block)
 *               block:   PENDING | APPROVED → BLOCKED      (never oneself, never an owner)
 *               disconnect: PENDING | APPROVED | BLOCKED → OFFLINE (never oneself, never an owner)
 *   activity    mute: ACTIVE → MUTED;  unmute: MUTED → ACTIVE
 *   privacy     joinCommunity: PRIVATE → PUBLIC (approved members only);  leaveCommunity: PUBLIC → PRIVATE
 *
 * Anything else is refused with an application error the caller can branch on.
 */
import type { ActivityStatus, MemberRole, MemberStatus, PrivacyStatus } from './model.js';

export type MemberAction = 'approve' | 'block' | 'disconnect' | 'mute' | 'unmute' | 'joinCommunity' | 'leaveCommunity';

export interface MemberState {
  memberId: string;
  status: MemberStatus;
  activityStatus: ActivityStatus;
  privacyStatus: PrivacyStatus;
  role: MemberRole;
}

export interface StateChange {
  status?: MemberStatus;
  activityStatus?: ActivityStatus;
  privacyStatus?: PrivacyStatus;
}

export interface Refusal {
  status: number;
  code: string;
  description: string;
  data: Record<string, unknown>;
}

export type TransitionResult =
  | { ok: true; change: StateChange; event: string }
  | { ok: false; refusal: Refusal };

/** The outbox event type of each action. */
export const ACTION_EVENTS: Record<MemberAction, string> = {
  approve: 'member.approved',
  block: 'member.blocked',
  disconnect: 'member.disconnected',
  mute: 'member.muted',
  unmute: 'member.unmuted',
  joinCommunity: 'member.joined_community',
  leaveCommunity: 'member.left_community',
};

function refuse(status: number, code: string, description: string, data: Record<string, unknown>): TransitionResult {
  return { ok: false, refusal: { status, code, description, data } };
}

function wrongState(member: MemberState, action: MemberAction, field: 'status' | 'activityStatus' | 'privacyStatus'): TransitionResult {
  return refuse(409, 'INVALID_MEMBER_STATE', `Cannot ${action} a member whose ${field} is ${member[field]}`, {
    memberId: member.memberId,
    action,
    [field]: member[field],
  });
}

function ok(action: MemberAction, change: StateChange): TransitionResult {
  return { ok: true, change, event: ACTION_EVENTS[action] };
}

/** `actorMemberId`: the member asking, when the actor is a member (owner or contributor). */
export function transition(member: MemberState, action: MemberAction, actorMemberId?: string): TransitionResult {
  const id = { memberId: member.memberId };
  switch (action) {
    case 'approve':
      if (member.status === 'PENDING' || member.status === 'BLOCKED') return ok(action, { status: 'APPROVED' });
      return wrongState(member, action, 'status');
    case 'block':
      if (actorMemberId === member.memberId) return refuse(400, 'MEMBER_SELF_BLOCK_FORBIDDEN', 'A member cannot block themself', id);
      if (member.role === 'OWNER') return refuse(403, 'OWNER_MEMBER_BLOCK_FORBIDDEN', 'A site owner cannot be blocked', id);
      if (member.status === 'PENDING' || member.status === 'APPROVED') return ok(action, { status: 'BLOCKED' });
      return wrongState(member, action, 'status');
    case 'disconnect':
      if (actorMemberId === member.memberId) return refuse(400, 'MEMBER_SELF_DISCONNECT_FORBIDDEN', 'A member cannot disconnect themself', id);
      if (member.role === 'OWNER') return refuse(403, 'OWNER_MEMBER_DISCONNECT_FORBIDDEN', 'A site owner cannot be disconnected', id);
      if (member.status !== 'OFFLINE') return ok(action, { status: 'OFFLINE' });
      return wrongState(member, action, 'status');
    case 'mute':
      if (member.activityStatus === 'ACTIVE') return ok(action, { activityStatus: 'MUTED' });
      return wrongState(member, action, 'activityStatus');
    case 'unmute':
      if (member.activityStatus === 'MUTED') return ok(action, { activityStatus: 'ACTIVE' });
      return wrongState(member, action, 'activityStatus');
    case 'joinCommunity':
      if (member.status !== 'APPROVED') {
        return refuse(409, 'COMMUNITY_JOIN_IMPOSSIBLE', `A ${member.status} member cannot join the community`, { ...id, status: member.status });
      }
      if (member.privacyStatus === 'PRIVATE') return ok(action, { privacyStatus: 'PUBLIC' });
      return wrongState(member, action, 'privacyStatus');
    case 'leaveCommunity':
      if (member.privacyStatus === 'PUBLIC') return ok(action, { privacyStatus: 'PRIVATE' });
      return wrongState(member, action, 'privacyStatus');
  }
}

// ─── deletion and roles ────────────────────────────────────────────────────────────────────────

/** Who is deleting: an API key, an owner, a contributor, or the member themself. */
export type DeleteActor = { kind: 'APP' } | { kind: 'OWNER' | 'CONTRIBUTOR' | 'SELF'; memberId: string };

/**
 * Only an owner (or an API key) may delete an owner; the last owner is never deleted, so a site
 * always keeps someone who can run it. `ownerCount` counts the site's owners, the target included.
 */
export function canDelete(target: Pick<MemberState, 'memberId' | 'role'>, actor: DeleteActor, ownerCount: number): Refusal | undefined {
  if (target.role === 'OWNER') {
    if (actor.kind === 'CONTRIBUTOR') {
      return { status: 403, code: 'OWNER_OR_CONTRIBUTOR_DELETE_FORBIDDEN', description: 'Only an owner may delete a site owner', data: { memberId: target.memberId } };
    }
    if (ownerCount <= 1) {
      return { status: 409, code: 'LAST_OWNER_DELETE_FORBIDDEN', description: 'The site\'s last owner cannot be deleted', data: { memberId: target.memberId } };
    }
  }
  return undefined;
}

/** Role changes: only owners (or API keys) decide them; the last owner keeps the role. */
export function canChangeRole(target: Pick<MemberState, 'memberId' | 'role' | 'status'>, to: MemberRole, ownerCount: number): Refusal | undefined {
  if (target.role === to) {
    return { status: 409, code: 'INVALID_MEMBER_STATE', description: `The member already has the role ${to}`, data: { memberId: target.memberId, role: to } };
  }
  if (target.role === 'OWNER' && ownerCount <= 1) {
    return { status: 409, code: 'LAST_OWNER_ROLE_CHANGE_FORBIDDEN', description: 'The site\'s last owner must stay an owner', data: { memberId: target.memberId } };
  }
  if (to !== 'MEMBER' && target.status !== 'APPROVED') {
    return { status: 409, code: 'INVALID_MEMBER_STATE', description: `A ${target.status} member cannot become ${to}`, data: { memberId: target.memberId, status: target.status } };
  }
  return undefined;
}
