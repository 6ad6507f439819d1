/**
 * Who is acting, checked against the database: an access token's member role may be up to four
 * hours old, so owners and contributors are re-read before they moderate, and members before
 * they change their own data.
 */
import type { RequestContext } from '../../platform/caller.js';
import { ApiError } from '../../platform/errors.js';
import { viewerOf, type Viewer } from './access.js';
import type { Member } from './model.js';
import * as store from './store.js';
import type { Refusal } from './transitions.js';

export type AdminViewer = Extract<Viewer, { kind: 'ADMIN' }>;

/** The viewer, with a signed-in owner's or contributor's role confirmed from their member row. */
export async function currentViewer(ctx: RequestContext | null): Promise<Viewer> {
  const viewer = viewerOf(ctx?.caller ?? null);
  if (viewer.kind !== 'ADMIN' || viewer.role === 'APP' || !ctx) return viewer;
  const actor = await store.findMember(ctx, viewer.memberId ?? '');
  if (!actor || actor.status !== 'APPROVED' || actor.role === 'MEMBER') {
    // A demoted or blocked back-office user keeps at most what a member may do.
    return actor && actor.status === 'APPROVED' ? { kind: 'MEMBER', memberId: actor.memberId } : { kind: 'VISITOR' };
  }
  return { kind: 'ADMIN', role: actor.role, memberId: actor.memberId };
}

export async function requireAdmin(ctx: RequestContext): Promise<AdminViewer> {
  const viewer = await currentViewer(ctx);
  if (viewer.kind !== 'ADMIN') throw ApiError.forbidden('Only the site\'s owners, contributors and API keys may do this');
  return viewer;
}

/** Owners and API keys: roles, and anything touching another owner. */
export async function requireOwner(ctx: RequestContext): Promise<AdminViewer> {
  const viewer = await requireAdmin(ctx);
  if (viewer.role === 'CONTRIBUTOR') throw ApiError.forbidden('Only a site owner may do this');
  return viewer;
}

/** The caller's own member row; `active` also requires it to be approved (for changes). */
export async function requireSelf(ctx: RequestContext, options: { active: boolean; forUpdate?: boolean }): Promise<Member> {
  const caller = ctx.caller;
  if (caller.kind !== 'MEMBER' && caller.kind !== 'WIX_USER') throw ApiError.forbidden('This call is for a signed-in member');
  const member = await store.findMember(ctx, caller.subjectId, options.forUpdate ?? false);
  if (!member) throw ApiError.notFound('NOT_FOUND', 'The signed-in member does not exist');
  if (options.active && member.status !== 'APPROVED') {
    throw new ApiError(403, 'MEMBER_NOT_ACTIVE', `A ${member.status} member cannot do this`, { memberId: member.memberId, status: member.status });
  }
  return member;
}

export function refusalError(refusal: Refusal): ApiError {
  return new ApiError(refusal.status, refusal.code, refusal.description, refusal.data);
}


export function memberNotFound(memberId: string): ApiError {
  return ApiError.notFound('MEMBER_NOT_FOUND', `No member ${memberId}`, { memberId });
}
