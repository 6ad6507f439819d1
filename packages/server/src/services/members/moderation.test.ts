/**
 * Moderation, roles and deletion through the official `@wix/members` package: every transition
 * of spec §4 and the refused ones, who may moderate, sessions ending on block, sign-in following
 * approval, and the owner rules.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestSite } from '../../test/harness.js';
import {
  adminClient, eventTypes, failure, membersTestApp, newMember, newSite, outboxEvents, setRole, signIn, uniqueEmail, visitorClient, type MembersClient,
} from '../../test/members.js';

const t = membersTestApp();

/** Bodega adds counts to the bulk-by-filter answers, beside the official jobId. */
const counts = (res: object) => (res as { bulkActionMetadata?: { totalSuccesses: number; totalFailures: number } }).bulkActionMetadata;

async function refresh(site: TestSite, refreshToken: string) {
  return t.app.inject({ method: 'POST', url: '/oauth2/token', payload: { clientId: site.clientId, grantType: 'refresh_token', refreshToken } });
}

describe('moderation transitions', () => {
  let site: TestSite;
  let admin: MembersClient;
  beforeAll(async () => {
    ({ site, admin } = await newSite(t));
  });

  it('mutes and unmutes, refusing to do either twice', async () => {
    const id = await newMember(admin);
    expect((await admin.members.muteMember(id)).member?.activityStatus).toBe('MUTED');
    expect(await failure(admin.members.muteMember(id))).toMatchObject({ status: 409, code: 'INVALID_MEMBER_STATE' });
    expect((await admin.members.unmuteMember(id)).member?.activityStatus).toBe('ACTIVE');
    expect(await failure(admin.members.unmuteMember(id))).toMatchObject({ status: 409, code: 'INVALID_MEMBER_STATE' });
    expect(await eventTypes(t, site, { entityId: id })).toEqual(expect.arrayContaining(['member.muted', 'member.unmuted']));
  });

  it('blocks, refuses a second block, and approve lifts the block', async () => {
    const id = await newMember(admin);
    expect((await admin.members.blockMember(id)).member?.status).toBe('BLOCKED');
    expect(await failure(admin.members.blockMember(id))).toMatchObject({ status: 409, code: 'INVALID_MEMBER_STATE' });
    expect((await admin.members.approveMember(id)).member?.status).toBe('APPROVED');
    expect(await failure(admin.members.approveMember(id))).toMatchObject({ status: 409, code: 'INVALID_MEMBER_STATE' });
    const blocked = (await outboxEvents(t, site, { entityId: id })).find((e) => e.type === 'member.blocked');
    expect(blocked?.payload).toMatchObject({ memberId: id, from: { status: 'APPROVED' }, to: { status: 'BLOCKED' } });
  });

  it('disconnects (OFFLINE), after which neither approve, block nor a second disconnect applies', async () => {
    const id = await newMember(admin);
    expect((await admin.members.disconnectMember(id)).member?.status).toBe('OFFLINE');
    for (const call of [() => admin.members.disconnectMember(id), () => admin.members.approveMember(id), () => admin.members.blockMember(id)]) {
      expect(await failure(call())).toMatchObject({ status: 409, code: 'INVALID_MEMBER_STATE' });
    }
    expect(await eventTypes(t, site, { entityId: id })).toContain('member.disconnected');
  });

  it('never blocks or disconnects an owner, nor lets an owner block themself', async () => {
    const ownerId = await newMember(admin);
    await setRole(t, site, ownerId, 'OWNER');
    const owner = await signIn(t, site, ownerId, 'OWNER');
    expect(await failure(admin.members.blockMember(ownerId))).toMatchObject({ status: 403, code: 'OWNER_MEMBER_BLOCK_FORBIDDEN' });
    expect(await failure(admin.members.disconnectMember(ownerId))).toMatchObject({ status: 403, code: 'OWNER_MEMBER_DISCONNECT_FORBIDDEN' });
    expect(await failure(owner.client.members.blockMember(ownerId))).toMatchObject({ status: 400, code: 'MEMBER_SELF_BLOCK_FORBIDDEN' });
  });

  it('answers 404 for a member of another site', async () => {
    const otherSite = await t.createSite();
    const foreign = await newMember(adminClient(otherSite));
    expect(await failure(admin.members.muteMember(foreign))).toMatchObject({ status: 404, code: 'MEMBER_NOT_FOUND' });
    expect(await failure(admin.members.getMember(foreign))).toMatchObject({ status: 404 });
  });
});

describe('who may moderate', () => {
  let site: TestSite;
  let admin: MembersClient;
  beforeAll(async () => {
    ({ site, admin } = await newSite(t));
  });

  it('a member and a visitor cannot moderate or administer', async () => {
    const target = await newMember(admin);
    const member = await signIn(t, site, await newMember(admin));
    const visitor = visitorClient(site);
    for (const client of [member.client, visitor]) {
      const calls = [
        () => client.members.muteMember(target), () => client.members.unmuteMember(target), () => client.members.approveMember(target),
        () => client.members.blockMember(target), () => client.members.disconnectMember(target), () => client.members.deleteMember(target),
        () => client.members.bulkDeleteMembers([target]), () => client.members.bulkDeleteMembersByFilter({}),
        () => client.members.bulkApproveMembers({}), () => client.members.bulkBlockMembers({}),
        () => client.members.createMember({ member: { loginEmail: uniqueEmail() } }), () => client.members.updateMemberSlug(target, 'x'),
      ];
      for (const call of calls) expect(await failure(call())).toMatchObject({ status: 403 });
    }
  });

  it('a contributor moderates', async () => {
    const contributorId = await newMember(admin);
    await setRole(t, site, contributorId, 'CONTRIBUTOR');
    const contributor = await signIn(t, site, contributorId, 'CONTRIBUTOR');
    const target = await newMember(admin);
    expect((await contributor.client.members.muteMember(target)).member?.activityStatus).toBe('MUTED');
    expect((await contributor.client.members.blockMember(target)).member?.status).toBe('BLOCKED');
  });

  it('a contributor demoted meanwhile loses the power at once, though their token still says CONTRIBUTOR', async () => {
    const contributorId = await newMember(admin);
    await setRole(t, site, contributorId, 'CONTRIBUTOR');
    const contributor = await signIn(t, site, contributorId, 'CONTRIBUTOR');
    await setRole(t, site, contributorId, 'MEMBER');
    expect(await failure(contributor.client.members.muteMember(await newMember(admin)))).toMatchObject({ status: 403 });
  });
});

describe('a blocked member loses their sign-in', () => {
  it('their refresh grant fails at once; after approval they may sign in again', async () => {
    const { site, admin } = await newSite(t);
    const id = await newMember(admin);
    const member = await signIn(t, site, id);
    expect((await refresh(site, member.tokens.refreshToken.value)).statusCode).toBe(200);
    await admin.members.blockMember(id);
    const refused = await refresh(site, member.tokens.refreshToken.value);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().details.applicationError.code).toBe('INVALID_GRANT');
    // The SDK's own renewal fails too.
    await expect(member.client.auth.renewToken(member.tokens.refreshToken)).rejects.toThrow(/Failed to fetch tokens/);
    // A blocked member's still-valid access token is refused at once (401, as an expired one).
    expect(await failure(member.client.members.updateCurrentMemberSlug('still-here'))).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    expect(await failure(member.client.members.getCurrentMember())).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    await admin.members.approveMember(id);
    const again = await signIn(t, site, id);
    expect((await refresh(site, again.tokens.refreshToken.value)).statusCode).toBe(200);
  });

  it('blocking by filter ends every blocked member\'s sign-in', async () => {
    const { site, admin } = await newSite(t);
    const a = await signIn(t, site, await newMember(admin, { nickname: 'Spam One' }));
    const b = await signIn(t, site, await newMember(admin, { nickname: 'Spam Two' }));
    const keep = await signIn(t, site, await newMember(admin, { nickname: 'Good' }));
    const res = await admin.members.bulkBlockMembers({ 'profile.nickname': { $startsWith: 'spam' } });
    expect(res).toMatchObject({ jobId: expect.any(String), bulkActionMetadata: { totalSuccesses: 2, totalFailures: 0 } });
    expect((await refresh(site, a.tokens.refreshToken.value)).statusCode).toBe(400);
    expect((await refresh(site, b.tokens.refreshToken.value)).statusCode).toBe(400);
    expect((await refresh(site, keep.tokens.refreshToken.value)).statusCode).toBe(200);
    const approved = await admin.members.bulkApproveMembers({ status: 'BLOCKED' });
    expect(counts(approved)).toMatchObject({ totalSuccesses: 2 });
    const again = await admin.members.bulkApproveMembers({});
    expect(counts(again)).toMatchObject({ totalSuccesses: 0, totalFailures: 3 });
  });
});

describe('sign-in follows the members service', () => {
  const AUTH = '/_api/iam/authentication/v2';
  async function auth(site: TestSite, path: string, email: string) {
    const res = await t.app.inject({
      method: 'POST', url: `${AUTH}/${path}`, headers: { authorization: await t.visitorToken(site) },
      payload: { loginId: { email }, password: 'a-good-password' },
    });
    return res.json() as { state?: string; identity?: { id: string } };
  }

  it('a member waiting for the owner gets in once approved, and not once blocked', async () => {
    const { site, admin } = await newSite(t, { signupPolicy: 'owner-approval' });
    const email = uniqueEmail('waiting');
    const registered = await auth(site, 'register', email);
    expect(registered.state).toBe('REQUIRE_OWNER_APPROVAL');
    const id = registered.identity?.id as string;
    expect((await admin.members.getMember(id, { fieldsets: ['EXTENDED'] })).status).toBe('PENDING');
    expect((await admin.members.approveMember(id)).member?.status).toBe('APPROVED');
    expect((await auth(site, 'login', email)).state).toBe('SUCCESS');
    await admin.members.blockMember(id);
    expect((await auth(site, 'login', email)).state).not.toBe('SUCCESS');
    await admin.members.approveMember(id);
    expect((await auth(site, 'login', email)).state).toBe('SUCCESS');
  });
});

describe('roles', () => {
  let site: TestSite;
  let admin: MembersClient;
  beforeAll(async () => {
    ({ site, admin } = await newSite(t));
  });

  async function changeRole(authorization: string, memberId: string, role: string, extra: Record<string, string> = {}) {
    return t.app.inject({ method: 'POST', url: `/members/v1/members/${memberId}/role`, headers: { authorization, ...extra }, payload: { role } });
  }

  it('an owner changes roles; a contributor and a member cannot', async () => {
    const ownerId = await newMember(admin);
    await setRole(t, site, ownerId, 'OWNER');
    const owner = await signIn(t, site, ownerId, 'OWNER');
    const contributorId = await newMember(admin);
    const target = await newMember(admin);
    const promoted = await changeRole(owner.tokens.accessToken.value, contributorId, 'CONTRIBUTOR');
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json().member).toMatchObject({ id: contributorId, role: 'CONTRIBUTOR' });
    const contributor = await signIn(t, site, contributorId, 'CONTRIBUTOR');
    expect((await changeRole(contributor.tokens.accessToken.value, target, 'OWNER')).statusCode).toBe(403);
    const member = await signIn(t, site, target);
    expect((await changeRole(member.tokens.accessToken.value, target, 'OWNER')).statusCode).toBe(403);
    expect(await eventTypes(t, site, { entityId: contributorId })).toContain('member.role_changed');
  });

  it('keeps the last owner an owner', async () => {
    const { site: s, admin: a } = await newSite(t);
    const only = await newMember(a);
    await setRole(t, s, only, 'OWNER');
    const res = await changeRole(s.apiKey, only, 'MEMBER', { 'wix-site-id': s.siteId });
    expect(res.statusCode).toBe(409);
    expect(res.json().details.applicationError.code).toBe('LAST_OWNER_ROLE_CHANGE_FORBIDDEN');
  });

  it('refuses an unknown role with a field violation', async () => {
    const res = await changeRole(site.apiKey, await newMember(admin), 'KING', { 'wix-site-id': site.siteId });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.validationError.fieldViolations[0]).toMatchObject({ field: 'role', violatedRule: 'INVALID_ENUM_VALUE' });
  });
});

describe('deleting members', () => {
  let site: TestSite;
  let admin: MembersClient;
  beforeAll(async () => {
    ({ site, admin } = await newSite(t));
  });

  it('deletes one member, ending their sign-in', async () => {
    const id = await newMember(admin);
    const member = await signIn(t, site, id);
    await admin.members.deleteMember(id);
    expect(await failure(admin.members.getMember(id))).toMatchObject({ status: 404 });
    expect((await refresh(site, member.tokens.refreshToken.value)).statusCode).toBe(400);
    expect(await eventTypes(t, site, { entityId: id })).toContain('member.deleted');
    expect(await failure(admin.members.deleteMember(id))).toMatchObject({ status: 404 });
  });

  it('deletes my member, handing content to an assignee', async () => {
    const id = await newMember(admin);
    const heir = await newMember(admin);
    const me = await signIn(t, site, id);
    expect(await failure(me.client.members.deleteMyMember({ contentAssigneeId: '00000000-0000-0000-0000-000000000000' }))).toMatchObject({ status: 404, code: 'CONTENT_ASSIGNEE_NOT_FOUND' });
    await me.client.members.deleteMyMember({ contentAssigneeId: heir });
    const deleted = (await outboxEvents(t, site, { entityId: id })).find((e) => e.type === 'member.deleted');
    expect(deleted?.payload).toMatchObject({ memberId: id, contentAssigneeId: heir });
    expect(await failure(admin.members.getMember(id))).toMatchObject({ status: 404 });
  });

  it('a contributor cannot delete an owner; an owner can, but never the last one', async () => {
    const { site: s, admin: a } = await newSite(t);
    const ownerA = await newMember(a);
    const ownerB = await newMember(a);
    const contributorId = await newMember(a);
    await setRole(t, s, ownerA, 'OWNER');
    await setRole(t, s, ownerB, 'OWNER');
    await setRole(t, s, contributorId, 'CONTRIBUTOR');
    const contributor = await signIn(t, s, contributorId, 'CONTRIBUTOR');
    expect(await failure(contributor.client.members.deleteMember(ownerA))).toMatchObject({ status: 403, code: 'OWNER_OR_CONTRIBUTOR_DELETE_FORBIDDEN' });
    const owner = await signIn(t, s, ownerB, 'OWNER');
    await owner.client.members.deleteMember(ownerA);
    expect(await failure(owner.client.members.deleteMyMember())).toMatchObject({ status: 409, code: 'LAST_OWNER_DELETE_FORBIDDEN' });
    expect((await owner.client.members.deleteMember(contributorId))).toBeDefined();
  });

  it('two owners deleting each other at once leave exactly one owner', async () => {
    const { site: s, admin: a } = await newSite(t);
    const ownerA = await newMember(a);
    const ownerB = await newMember(a);
    await setRole(t, s, ownerA, 'OWNER');
    await setRole(t, s, ownerB, 'OWNER');
    const [asA, asB] = [await signIn(t, s, ownerA, 'OWNER'), await signIn(t, s, ownerB, 'OWNER')];
    const results = await Promise.allSettled([asA.client.members.deleteMember(ownerB), asB.client.members.deleteMember(ownerA)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const [row] = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM members WHERE site_id = $1 AND role = 'OWNER'", [s.siteId]);
    expect(row.n).toBe(1);
  });

  it('deletes in bulk by id, reporting each item', async () => {
    const a = await newMember(admin);
    const b = await newMember(admin);
    const missing = '00000000-0000-0000-0000-000000000001';
    const res = await admin.members.bulkDeleteMembers([a, missing, b, a]);
    expect(res.results?.map((r) => [r.itemMetadata?.originalIndex, r.itemMetadata?.success, r.itemMetadata?.error?.code])).toEqual([
      [0, true, undefined], [1, false, 'MEMBER_NOT_FOUND'], [2, true, undefined], [3, false, 'DUPLICATE_MEMBER_ID'],
    ]);
    expect(res.bulkActionMetadata).toMatchObject({ totalSuccesses: 2, totalFailures: 2 });
    expect(await failure(admin.members.bulkDeleteMembers([]))).toMatchObject({ status: 400 });
  });

  it('deletes in bulk by filter and search, sparing the caller', async () => {
    const { admin: a } = await newSite(t);
    await newMember(a, { nickname: 'Temp One' });
    await newMember(a, { nickname: 'Temp Two' });
    const keep = await newMember(a, { nickname: 'Keeper' });
    const res = await a.members.bulkDeleteMembersByFilter({}, { search: { expression: 'temp' } });
    expect(counts(res)).toMatchObject({ totalSuccesses: 2 });
    const left = await a.members.queryMembers().find();
    expect(left.items.map((m) => m._id)).toEqual([keep]);
    expect(await failure(a.members.bulkDeleteMembersByFilter(undefined))).toMatchObject({ status: 400 });
  });
});
