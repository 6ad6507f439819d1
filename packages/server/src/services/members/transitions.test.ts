import { describe, expect, it } from 'vitest';
import { canChangeRole, canDelete, transition, type MemberAction, type MemberState } from './transitions.js';

const member = (over: Partial<MemberState> = {}): MemberState => ({
  memberId: 'm1', status: 'APPROVED', activityStatus: 'ACTIVE', privacyStatus: 'PRIVATE', role: 'MEMBER', ...over,
});

describe('member state machine', () => {
  const allowed: [string, Partial<MemberState>, MemberAction, Record<string, string>, string][] = [
    ['approves a pending member', { status: 'PENDING' }, 'approve', { status: 'APPROVED' }, 'member.approved'],
    ['approve lifts a block', { status: 'BLOCKED' }, 'approve', { status: 'APPROVED' }, 'member.approved'],
    ['blocks an approved member', {}, 'block', { status: 'BLOCKED' }, 'member.blocked'],
    ['blocks a pending member', { status: 'PENDING' }, 'block', { status: 'BLOCKED' }, 'member.blocked'],
    ['disconnects an approved member', {}, 'disconnect', { status: 'OFFLINE' }, 'member.disconnected'],
    ['disconnects a blocked member', { status: 'BLOCKED' }, 'disconnect', { status: 'OFFLINE' }, 'member.disconnected'],
    ['mutes an active member', {}, 'mute', { activityStatus: 'MUTED' }, 'member.muted'],
    ['unmutes a muted member', { activityStatus: 'MUTED' }, 'unmute', { activityStatus: 'ACTIVE' }, 'member.unmuted'],
    ['joins the community', {}, 'joinCommunity', { privacyStatus: 'PUBLIC' }, 'member.joined_community'],
    ['leaves the community', { privacyStatus: 'PUBLIC' }, 'leaveCommunity', { privacyStatus: 'PRIVATE' }, 'member.left_community'],
  ];
  it.each(allowed)('%s', (_name, state, action, change, event) => {
    expect(transition(member(state), action, 'admin')).toMatchObject({ ok: true, change, event });
  });

  const refused: [string, Partial<MemberState>, MemberAction, string | undefined, number, string][] = [
    ['will not approve an approved member', {}, 'approve', 'admin', 409, 'INVALID_MEMBER_STATE'],
    ['will not approve an offline member', { status: 'OFFLINE' }, 'approve', 'admin', 409, 'INVALID_MEMBER_STATE'],
    ['will not block twice', { status: 'BLOCKED' }, 'block', 'admin', 409, 'INVALID_MEMBER_STATE'],
    ['will not block an offline member', { status: 'OFFLINE' }, 'block', 'admin', 409, 'INVALID_MEMBER_STATE'],
    ['will not block oneself', {}, 'block', 'm1', 400, 'MEMBER_SELF_BLOCK_FORBIDDEN'],
    ['will not block an owner', { role: 'OWNER' }, 'block', 'admin', 403, 'OWNER_MEMBER_BLOCK_FORBIDDEN'],
    ['will not disconnect twice', { status: 'OFFLINE' }, 'disconnect', 'admin', 409, 'INVALID_MEMBER_STATE'],
    ['will not disconnect an owner', { role: 'OWNER' }, 'disconnect', undefined, 403, 'OWNER_MEMBER_DISCONNECT_FORBIDDEN'],
    ['will not disconnect oneself', {}, 'disconnect', 'm1', 400, 'MEMBER_SELF_DISCONNECT_FORBIDDEN'],
    ['will not mute twice', { activityStatus: 'MUTED' }, 'mute', 'admin', 409, 'INVALID_MEMBER_STATE'],
    ['will not unmute an active member', {}, 'unmute', 'admin', 409, 'INVALID_MEMBER_STATE'],
    ['will not join twice', { privacyStatus: 'PUBLIC' }, 'joinCommunity', 'm1', 409, 'INVALID_MEMBER_STATE'],
    ['a pending member cannot join', { status: 'PENDING' }, 'joinCommunity', 'm1', 409, 'COMMUNITY_JOIN_IMPOSSIBLE'],
    ['a blocked member cannot join', { status: 'BLOCKED' }, 'joinCommunity', 'm1', 409, 'COMMUNITY_JOIN_IMPOSSIBLE'],
    ['will not leave twice', {}, 'leaveCommunity', 'm1', 409, 'INVALID_MEMBER_STATE'],
  ];
  it.each(refused)('%s', (_name, state, action, actor, status, code) => {
    expect(transition(member(state), action, actor)).toMatchObject({ ok: false, refusal: { status, code, data: { memberId: 'm1' } } });
  });
});

describe('deletion and role rules', () => {
  it('lets a contributor delete a member but not an owner', () => {
    expect(canDelete(member(), { kind: 'CONTRIBUTOR', memberId: 'c' }, 2)).toBeUndefined();
    expect(canDelete(member({ role: 'OWNER' }), { kind: 'CONTRIBUTOR', memberId: 'c' }, 2)).toMatchObject({ status: 403, code: 'OWNER_OR_CONTRIBUTOR_DELETE_FORBIDDEN' });
  });
  it('lets an owner or an API key delete an owner, never the last one', () => {
    expect(canDelete(member({ role: 'OWNER' }), { kind: 'OWNER', memberId: 'o' }, 2)).toBeUndefined();
    expect(canDelete(member({ role: 'OWNER' }), { kind: 'APP' }, 2)).toBeUndefined();
    expect(canDelete(member({ role: 'OWNER' }), { kind: 'SELF', memberId: 'm1' }, 1)).toMatchObject({ code: 'LAST_OWNER_DELETE_FORBIDDEN' });
  });
  it('keeps the last owner an owner and refuses no-op or unapproved promotions', () => {
    expect(canChangeRole(member({ role: 'OWNER' }), 'MEMBER', 1)).toMatchObject({ code: 'LAST_OWNER_ROLE_CHANGE_FORBIDDEN' });
    expect(canChangeRole(member({ role: 'OWNER' }), 'MEMBER', 2)).toBeUndefined();
    expect(canChangeRole(member(), 'MEMBER', 1)).toMatchObject({ code: 'INVALID_MEMBER_STATE' });
    expect(canChangeRole(member({ status: 'BLOCKED' }), 'CONTRIBUTOR', 1)).toMatchObject({ code: 'INVALID_MEMBER_STATE' });
    expect(canChangeRole(member(), 'CONTRIBUTOR', 0)).toBeUndefined();
  });
});
