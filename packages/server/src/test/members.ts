/**
 * Members test kit: official `@wix/members` clients for each caller kind against a listening
 * Bodega, and members created through the API with real signed tokens.
 */
import { ApiKeyStrategy, createClient, OAuthStrategy, type Tokens } from '@wix/sdk';
import { badges, customFields, memberFollowers, memberReport, members, membersAbout } from '@wix/members';
import type { MemberRole } from '../platform/caller.js';
import type { TestApp, TestSite } from './harness.js';

const modules = { members, badges, customFields, memberFollowers, memberReport, membersAbout };

export function adminClient(site: TestSite) {
  return createClient({ auth: ApiKeyStrategy({ apiKey: site.apiKey, siteId: site.siteId }), modules });
}

export type MembersClient = ReturnType<typeof adminClient>;

/** A visitor: the SDK fetches its own anonymous tokens on the first call. */
export function visitorClient(site: TestSite) {
  return createClient({ auth: OAuthStrategy({ clientId: site.clientId }), modules });
}

export interface SignedInMember {
  memberId: string;
  tokens: Tokens;
  client: ReturnType<typeof visitorClient>;
}

/** Real signed tokens for a member (OWNER or CONTRIBUTOR tokens make a WIX_USER caller). */
export async function signIn(t: TestApp, site: TestSite, memberId: string, memberRole: MemberRole = 'MEMBER'): Promise<SignedInMember> {
  const grant = await t.app.services.oauth.startSession({ siteId: site.siteId, clientId: site.clientId, role: 'member', subjectId: memberId, memberRole });
  const tokens: Tokens = {
    accessToken: { value: grant.access_token, expiresAt: Math.floor(Date.now() / 1000) + grant.expires_in },
    refreshToken: { value: grant.refresh_token, role: 'member' as Tokens['refreshToken']['role'] },
  };
  return { memberId, tokens, client: createClient({ auth: OAuthStrategy({ clientId: site.clientId, tokens }), modules }) };
}

let counter = 0;

export function uniqueEmail(tag = 'member'): string {
  return `${tag}.${++counter}.${process.pid}.${Date.now()}@example.com`;
}

export interface NewMemberOptions {
  nickname?: string;
  /** Join the community (PUBLIC); default true. */
  public?: boolean;
  role?: MemberRole;
  email?: string;
}

/** Creates an approved member through the API (as an API key), optionally public and with a role. */
export async function newMember(admin: MembersClient, options: NewMemberOptions = {}): Promise<string> {
  const member = await admin.members.createMember({
    member: {
      loginEmail: options.email ?? uniqueEmail(options.nickname?.toLowerCase().replace(/\W+/g, '-') || 'member'),
      profile: { nickname: options.nickname ?? `Member ${counter}` },
      privacyStatus: options.public === false ? 'PRIVATE' : 'PUBLIC',
    },
  });
  const id = member._id as string;
  return id;
}

/** Sets a role through the Bodega role route (owners and API keys only). */
export async function setRole(t: TestApp, site: TestSite, memberId: string, role: MemberRole): Promise<void> {
  const res = await t.app.inject({
    method: 'POST', url: `/members/v1/members/${memberId}/role`,
    headers: { authorization: site.apiKey, 'wix-site-id': site.siteId }, payload: { role },
  });
  if (res.statusCode !== 200) throw new Error(`role change failed: ${res.body}`);
}

/** The SDK's error, reduced to what a test checks: status and application code. */
export async function failure(promise: Promise<unknown>): Promise<{ status: number; code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    const e = error as { status?: number; message?: string; details?: { applicationError?: { code?: unknown }; validationError?: unknown } };
    const code = e.details?.applicationError?.code ?? (e.details?.validationError ? 'VALIDATION' : 'UNKNOWN');
    return { status: e.status ?? 0, code: String(code), message: e.message ?? '' };
  }
  throw new Error('expected the call to fail');
}
