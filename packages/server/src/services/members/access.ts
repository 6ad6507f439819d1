/**
 * Who may see what (pure). A visitor or another member sees only approved, public members and
 * only their PUBLIC fieldset (plus custom field values marked PUBLIC); a member sees all of
 * themself; WIX_USER callers (owners, contributors) and API keys see everyone and everything.
 */
import type { Caller } from '../../platform/caller.js';
import type { Fieldset, Member } from './model.js';

export type Viewer =
  /** An API key (`role` APP) or a site owner or contributor signed in as a member. */
  | { kind: 'ADMIN'; role: 'APP' | 'OWNER' | 'CONTRIBUTOR'; memberId?: string }
  | { kind: 'MEMBER'; memberId: string }
  | { kind: 'VISITOR' };

export function viewerOf(caller: Caller | null): Viewer {
  if (!caller) return { kind: 'VISITOR' };
  switch (caller.kind) {
    case 'APP':
      return { kind: 'ADMIN', role: 'APP' };
    case 'WIX_USER':
      return { kind: 'ADMIN', role: caller.memberRole === 'OWNER' ? 'OWNER' : 'CONTRIBUTOR', memberId: caller.subjectId };
    case 'MEMBER':
      return { kind: 'MEMBER', memberId: caller.subjectId };
    default:
      return { kind: 'VISITOR' };
  }
}

export function selfId(viewer: Viewer): string | undefined {
  return viewer.kind === 'VISITOR' ? undefined : viewer.memberId;
}

export type Relation = 'ADMIN' | 'SELF' | 'OTHER';

export function relationTo(viewer: Viewer, memberId: string): Relation {
  if (viewer.kind === 'ADMIN') return 'ADMIN';
  if (viewer.kind === 'MEMBER' && viewer.memberId === memberId) return 'SELF';
  return 'OTHER';
}

/** What others may see: an approved member who joined the community. */
export function isListedPublicly(member: Pick<Member, 'status' | 'privacyStatus'>): boolean {
  return member.status === 'APPROVED' && member.privacyStatus === 'PUBLIC';
}

export function canSee(viewer: Viewer, member: Pick<Member, 'memberId' | 'status' | 'privacyStatus'>): boolean {
  return relationTo(viewer, member.memberId) !== 'OTHER' || isListedPublicly(member);
}

/** How much of a member an answer holds. */
export interface Projection {
  level: Fieldset;
  /** Others asking for more than PUBLIC get the custom field values marked PUBLIC, nothing else. */
  publicCustomFieldsOnly: boolean;
  /** The member's role (a Bodega extension of the wire member), for admins and the member. */
  role: boolean;
}

/** The widest requested fieldset; PUBLIC when none. */
export function widestFieldset(requested: readonly Fieldset[] | undefined): Fieldset {
  if (!requested || requested.length === 0) return 'PUBLIC';
  if (requested.includes('FULL')) return 'FULL';
  if (requested.includes('EXTENDED')) return 'EXTENDED';
  return 'PUBLIC';
}

export function projectionFor(relation: Relation, requested: readonly Fieldset[] | undefined): Projection {
  const level = widestFieldset(requested);
  if (relation === 'OTHER') return { level: 'PUBLIC', publicCustomFieldsOnly: level !== 'PUBLIC', role: false };
  return { level, publicCustomFieldsOnly: false, role: level === 'FULL' };
}
