/**
 * The members calls of spec §7 through the official `@wix/members` package, for each caller
 * kind: visitors and members (OAuthStrategy, edge host), owners and contributors (member tokens
 * with those roles: WIX_USER callers) and API keys (ApiKeyStrategy).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestSite } from '../../test/harness.js';
import type { MembersQueryBuilder } from '@wix/auto_sdk_members_members';
import { eventTypes, failure, membersTestApp, newMember, newSite, setRole, signIn, uniqueEmail, visitorClient, type MembersClient } from '../../test/members.js';

const t = membersTestApp();

/**
 * The installed builder has `not`, `ascending` and `descending` (it sends `{"$not":{…}}` and
 * `sort`), though the members typings leave them out; this view of it adds them.
 */
interface OffsetBuilder {
  not(query: MembersQueryBuilder): OffsetBuilder;
  ascending(field: string): OffsetBuilder;
  descending(field: string): OffsetBuilder;
  limit(limit: number): OffsetBuilder;
  find(): ReturnType<MembersQueryBuilder['find']>;
}
const builder = (query: MembersQueryBuilder) => query as unknown as OffsetBuilder;

describe('creating, reading and updating members', () => {
  let site: TestSite;
  let admin: MembersClient;
  beforeAll(async () => {
    ({ site, admin } = await newSite(t));
  });

  it('creates a member with an API key and reads it back whole', async () => {
    const email = uniqueEmail('ann');
    const created = await admin.members.createMember({
      member: {
        loginEmail: email,
        profile: { nickname: 'Ann Example', title: 'Baker', photo: { url: 'https://img.example/ann.png', height: 10, width: 20 } },
        contact: { firstName: 'Ann', lastName: 'Example', phones: ['+1 555 0100'], emails: [email], company: 'Bakery', birthdate: '1990-04-01' },
      },
    });
    expect(created).toMatchObject({
      loginEmail: email, status: 'APPROVED', privacyStatus: 'PRIVATE', activityStatus: 'ACTIVE',
      profile: { nickname: 'Ann Example', slug: 'ann-example', title: 'Baker', photo: { url: 'https://img.example/ann.png', height: 10, width: 20 } },
      contact: { firstName: 'Ann', lastName: 'Example', phones: ['+1 555 0100'], emails: [email], company: 'Bakery', birthdate: '1990-04-01' },
    });
    expect(created._createdDate).toBeInstanceOf(Date);
    const read = await admin.members.getMember(created._id as string, { fieldsets: ['FULL'] });
    expect(read).toMatchObject({ _id: created._id, contactId: created._id, loginEmail: email, contact: { company: 'Bakery' } });
    expect(await eventTypes(t, site, { entityId: created._id as string })).toContain('member.created');
  });

  it('reads stored times to the millisecond, truncating the microseconds', async () => {
    const created = await admin.members.createMember({ member: { loginEmail: uniqueEmail('micro') } });
    await t.db.query(
      `UPDATE members SET created_at = '2024-02-29T23:59:59.999999Z', updated_at = '1969-12-31T23:59:59.0005Z', last_login_at = '2025-01-01T00:00:00.124Z'
       WHERE site_id = $1 AND member_id = $2`,
      [site.siteId, created._id],
    );
    const read = await admin.members.getMember(created._id as string, { fieldsets: ['FULL'] });
    expect([read._createdDate, read._updatedDate, read.lastLoginDate].map((date) => new Date(date ?? 0).toISOString())).toEqual([
      '2024-02-29T23:59:59.999Z',
      '1969-12-31T23:59:59.000Z',
      '2025-01-01T00:00:00.124Z',
    ]);
  });

  it('refuses a second member with the same login e-mail, whatever its case', async () => {
    const email = uniqueEmail('dup');
    await admin.members.createMember({ member: { loginEmail: email } });
    const err = await failure(admin.members.createMember({ member: { loginEmail: email.toUpperCase() } }));
    expect(err).toMatchObject({ status: 409, code: 'EMAIL_ALREADY_EXISTS' });
  });

  it('refuses a member without a valid login e-mail', async () => {
    expect(await failure(admin.members.createMember({ member: { profile: { nickname: 'x' } } }))).toMatchObject({ status: 400, code: 'VALIDATION' });
    expect(await failure(admin.members.createMember({ member: { loginEmail: 'not-an-email' } }))).toMatchObject({ status: 400, code: 'VALIDATION' });
  });

  it('updates only the fields sent, and empty lists leave lists alone', async () => {
    const id = await newMember(admin, { nickname: 'Bo' });
    await admin.members.updateMember(id, { contact: { firstName: 'Bo', phones: ['+44 20 7946 0000'], addresses: [{ addressLine: '1 High St', city: 'York', country: 'gb' }] } });
    const updated = await admin.members.updateMember(id, { profile: { title: 'Chef' }, contact: { lastName: 'Jones', phones: [] } });
    expect(updated.profile).toMatchObject({ nickname: 'Bo', title: 'Chef' });
    expect(updated.contact).toMatchObject({ firstName: 'Bo', lastName: 'Jones', phones: ['+44 20 7946 0000'] });
    expect(updated.contact?.addresses?.[0]).toMatchObject({ addressLine: '1 High St', city: 'York', country: 'GB' });
    expect(updated.contact?.addresses?.[0]._id).toEqual(expect.any(String));
    const cleared = await admin.members.updateMember(id, { profile: { title: '' } });
    expect(cleared.profile?.title).toBeUndefined();
    expect(await eventTypes(t, site, { entityId: id })).toContain('member.updated');
  });

  it('deletes phones, e-mails and addresses', async () => {
    const id = await newMember(admin);
    await admin.members.updateMember(id, { contact: { phones: ['+1 555 0101'], emails: ['x@example.com'], addresses: [{ city: 'Oslo' }] } });
    expect((await admin.members.deleteMemberPhones(id)).member?.contact?.phones).toEqual([]);
    expect((await admin.members.deleteMemberEmails(id)).member?.contact?.emails).toEqual([]);
    expect((await admin.members.deleteMemberAddresses(id)).member?.contact?.addresses).toEqual([]);
  });

  it('lets a member update themself but nobody else', async () => {
    const id = await newMember(admin, { nickname: 'Self' });
    const other = await newMember(admin);
    const me = await signIn(t, site, id);
    const updated = await me.client.members.updateMember(id, { profile: { nickname: 'Self Made' } });
    expect(updated.profile?.nickname).toBe('Self Made');
    expect(await failure(me.client.members.updateMember(other, { profile: { nickname: 'Hacked' } }))).toMatchObject({ status: 403 });
    expect((await me.client.members.deleteMemberPhones(id)).member?._id).toBe(id);
    expect(await failure(me.client.members.deleteMemberPhones(other))).toMatchObject({ status: 403 });
  });

  it('answers 404 for an unknown member', async () => {
    expect(await failure(admin.members.getMember('00000000-0000-0000-0000-000000000000'))).toMatchObject({ status: 404, code: 'MEMBER_NOT_FOUND' });
  });
});

describe('what each caller kind sees', () => {
  let site: TestSite;
  let admin: MembersClient;
  let publicId: string;
  let privateId: string;
  let blockedId: string;
  beforeAll(async () => {
    ({ site, admin } = await newSite(t));
    publicId = await newMember(admin, { nickname: 'Open Olga' });
    privateId = await newMember(admin, { nickname: 'Hidden Hal', public: false });
    blockedId = await newMember(admin, { nickname: 'Blocked Bea' });
    await admin.members.updateMember(publicId, { contact: { firstName: 'Olga', phones: ['+1 555 0199'] } });
    await admin.members.blockMember(blockedId);
  });

  it('a visitor sees only the PUBLIC fieldset of public, approved members, whatever it asks', async () => {
    const visitor = visitorClient(site);
    const olga = await visitor.members.getMember(publicId, { fieldsets: ['FULL'] });
    expect(olga).toMatchObject({ _id: publicId, status: 'UNKNOWN', privacyStatus: 'UNKNOWN', activityStatus: 'UNKNOWN', profile: { nickname: 'Open Olga' } });
    expect(olga.loginEmail).toBeUndefined();
    expect(olga.contact).toBeUndefined();
    expect(await failure(visitor.members.getMember(privateId))).toMatchObject({ status: 404, code: 'MEMBER_NOT_FOUND' });
    expect(await failure(visitor.members.getMember(blockedId))).toMatchObject({ status: 404 });
    const listed = await visitor.members.listMembers({ fieldsets: ['FULL'] });
    expect(listed.members?.map((m) => m._id)).toEqual([publicId]);
    expect(listed.metadata).toMatchObject({ total: 1, count: 1, offset: 0 });
  });

  it('another member sees the same as a visitor', async () => {
    const other = await signIn(t, site, await newMember(admin, { public: false }));
    const olga = await other.client.members.getMember(publicId, { fieldsets: ['EXTENDED'] });
    expect(olga.loginEmail).toBeUndefined();
    expect(await failure(other.client.members.getMember(privateId))).toMatchObject({ status: 404 });
    const found = await other.client.members.queryMembers({ fieldsets: ['FULL'] }).find();
    // Public approved members, and the private caller themself (in full: it is them).
    expect(found.items.map((m) => m._id).sort()).toEqual([publicId, other.memberId].sort());
    expect(found.items.find((m) => m._id === other.memberId)?.loginEmail).toEqual(expect.any(String));
    expect(found.items.find((m) => m._id === publicId)?.loginEmail).toBeUndefined();
  });

  it('a private member sees all of themself', async () => {
    const hal = await signIn(t, site, privateId);
    const me = await hal.client.members.getCurrentMember({ fieldsets: ['FULL'] });
    expect(me.member).toMatchObject({ _id: privateId, privacyStatus: 'PRIVATE', status: 'APPROVED', loginEmail: expect.any(String), contact: expect.any(Object) });
    expect((await hal.client.members.getMember(privateId, { fieldsets: ['EXTENDED'] })).privacyStatus).toBe('PRIVATE');
    const plain = await hal.client.members.getCurrentMember();
    expect(plain.member?.status).toBe('UNKNOWN');
  });

  it('owners, contributors and API keys see everyone and everything', async () => {
    const contributorId = await newMember(admin);
    await setRole(t, site, contributorId, 'CONTRIBUTOR');
    const contributor = await signIn(t, site, contributorId, 'CONTRIBUTOR');
    const ownerId = await newMember(admin);
    await setRole(t, site, ownerId, 'OWNER');
    const owner = await signIn(t, site, ownerId, 'OWNER');
    for (const client of [admin, contributor.client, owner.client]) {
      const hal = await client.members.getMember(privateId, { fieldsets: ['FULL'] });
      expect(hal).toMatchObject({ privacyStatus: 'PRIVATE', loginEmail: expect.any(String) });
      const bea = await client.members.getMember(blockedId, { fieldsets: ['EXTENDED'] });
      expect(bea.status).toBe('BLOCKED');
      const olga = await client.members.getMember(publicId, { fieldsets: ['FULL'] });
      expect(olga.contact).toMatchObject({ firstName: 'Olga', phones: ['+1 555 0199'] });
      const all = await client.members.queryMembers().find();
      expect(all.items.map((m) => m._id)).toEqual(expect.arrayContaining([publicId, privateId, blockedId, contributorId, ownerId]));
    }
  });

  it('keeps private fields out of filters of callers who cannot see them', async () => {
    const visitor = visitorClient(site);
    expect(await failure(visitor.members.queryMembers().eq('loginEmail', 'x@example.com').find())).toMatchObject({ status: 400, code: 'VALIDATION' });
  });

  it('a visitor reading "my member" gets an answer without a member (visitor auth is admitted)', async () => {
    expect((await visitorClient(site).members.getCurrentMember()).member).toBeUndefined();
  });
});

describe('lists and queries', () => {
  let site: TestSite;
  let admin: MembersClient;
  const ids: string[] = [];
  beforeAll(async () => {
    ({ site, admin } = await newSite(t));
    for (const nickname of ['Delta', 'alpha', 'Charlie', 'Bravo', 'Echo']) ids.push(await newMember(admin, { nickname }));
    await admin.members.blockMember(ids[4]);
  });

  it('pages a query by offset with metadata.total, so the builder knows the next page', async () => {
    const first = await builder(admin.members.queryMembers()).ascending('profile.nickname').limit(2).find();
    expect(first.items.map((m) => m.profile?.nickname)).toEqual(['alpha', 'Bravo']);
    expect(first.totalCount).toBe(5);
    expect(first.hasNext()).toBe(true);
    const second = await first.next();
    expect(second.items.map((m) => m.profile?.nickname)).toEqual(['Charlie', 'Delta']);
    const third = await second.next();
    expect(third.items.map((m) => m.profile?.nickname)).toEqual(['Echo']);
    expect(third.hasNext()).toBe(false);
  });

  it('filters with eq on _id, ne, in, startsWith (case-insensitive) and not in object form', async () => {
    expect((await admin.members.queryMembers().eq('_id', ids[0]).find()).items.map((m) => m._id)).toEqual([ids[0]]);
    const notBlocked = await builder(admin.members.queryMembers()).not(admin.members.queryMembers().eq('status', 'BLOCKED')).find();
    expect(notBlocked.items).toHaveLength(4);
    expect(notBlocked.totalCount).toBe(4);
    const startsWith = await admin.members.queryMembers().startsWith('profile.nickname', 'CH').find();
    expect(startsWith.items.map((m) => m.profile?.nickname)).toEqual(['Charlie']);
    const some = await admin.members.queryMembers().in('_id', [ids[1], ids[2]]).ne('profile.nickname', 'alpha').find();
    expect(some.items.map((m) => m._id)).toEqual([ids[2]]);
    const blocked = await admin.members.queryMembers({ fieldsets: ['EXTENDED'] }).eq('status', 'BLOCKED').find();
    expect(blocked.items.map((m) => m.status)).toEqual(['BLOCKED']);
  });

  it('sorts newest first by default and by _createdDate on request', async () => {
    const newest = await admin.members.queryMembers().find();
    expect(newest.items[0]._id).toBe(ids[4]);
    const oldest = await builder(admin.members.queryMembers()).ascending('_createdDate').limit(1).find();
    expect(oldest.items[0]._id).toBe(ids[0]);
  });

  it('lists with paging, fieldsets and sorting sent as .r', async () => {
    const listed = await admin.members.listMembers({ paging: { limit: 2, offset: 1 }, fieldsets: ['EXTENDED'], sorting: [{ fieldName: 'profile.nickname', order: 'DESC' }] });
    expect(listed.members?.map((m) => m.profile?.nickname)).toEqual(['Delta', 'Charlie']);
    expect(listed.members?.[0].loginEmail).toEqual(expect.any(String));
    expect(listed.metadata).toMatchObject({ count: 2, offset: 1, total: 5 });
  });

  it('searches nicknames as plain text', async () => {
    const res = await admin.members.queryMembers({ search: { expression: 'RAV' } }).find();
    expect(res.items.map((m) => m.profile?.nickname)).toEqual(['Bravo']);
  });

  it('answers bad filters, sorts and paging with field violations, never a 500', async () => {
    expect(await failure(admin.members.queryMembers().eq('status', 'GONE').find())).toMatchObject({ status: 400 });
    expect(await failure(admin.members.queryMembers().limit(5000).find())).toMatchObject({ status: 400 });
    expect(await failure(admin.members.listMembers({ sorting: [{ fieldName: 'password' }] }))).toMatchObject({ status: 400 });
    const raw = await t.app.inject({ method: 'POST', url: '/members/v1/members/query', headers: { authorization: site.apiKey, 'wix-site-id': site.siteId }, payload: { query: { filter: { $where: 'x' } } } });
    expect(raw.statusCode).toBe(400);
    expect(raw.json().details.validationError.fieldViolations[0]).toMatchObject({ field: 'query.filter.$where' });
  });

  it('refuses NUL characters and impossible dates before they reach the database', async () => {
    const headers = { authorization: site.apiKey, 'wix-site-id': site.siteId };
    const nul = await t.app.inject({ method: 'PATCH', url: `/members/v1/members/${ids[0]}`, headers, payload: { member: { profile: { nickname: 'a\u0000b' } } } });
    expect(nul.statusCode).toBe(400);
    expect(nul.json().details.validationError.fieldViolations[0]).toMatchObject({ field: 'member.profile.nickname', violatedRule: 'FORMAT' });
    const inFilter = await t.app.inject({ method: 'POST', url: '/members/v1/members/query', headers, payload: { query: { filter: { id: '\u0000' } } } });
    expect(inFilter.statusCode).toBe(400);
    const inPath = await t.app.inject({ method: 'GET', url: '/members/v1/members/a%00b', headers });
    expect(inPath.statusCode).toBe(400);
    const farFuture = await t.app.inject({ method: 'POST', url: '/members/v1/members/query', headers, payload: { query: { filter: { createdDate: { $gt: '+275000-01-01T00:00:00.000Z' } } } } });
    expect(farFuture.statusCode).toBe(400);
  });

  it('serves the custom-host paths too', async () => {
    const headers = { authorization: site.apiKey, 'wix-site-id': site.siteId };
    const got = await t.app.inject({ method: 'GET', url: `/_api/members/v1/members/${ids[0]}?id=${ids[0]}&fieldsets=FULL`, headers });
    expect(got.statusCode).toBe(200);
    expect(got.json().member).toMatchObject({ id: ids[0], createdDate: expect.any(String) });
    const queried = await t.app.inject({ method: 'POST', url: '/_api/members/v1/members/query', headers, payload: { query: { paging: { limit: 1 } } } });
    expect(queried.json().metadata).toMatchObject({ count: 1, total: 5 });
  });
});

describe('slugs', () => {
  let site: TestSite;
  let admin: MembersClient;
  beforeAll(async () => {
    ({ site, admin } = await newSite(t));
  });

  it('gives new members a free slug from their nickname', async () => {
    const a = await admin.members.getMember(await newMember(admin, { nickname: 'Sam Lee' }));
    const b = await admin.members.getMember(await newMember(admin, { nickname: 'Sam Lee' }));
    expect(a.profile?.slug).toBe('sam-lee');
    expect(b.profile?.slug).toMatch(/^sam-lee-[0-9a-f-]+$/);
  });

  it('changes my slug and a member\'s slug, and refuses a taken one as an application error', async () => {
    const mine = await newMember(admin, { nickname: 'Mine' });
    const theirs = await newMember(admin, { nickname: 'Theirs' });
    const me = await signIn(t, site, mine);
    expect((await me.client.members.updateCurrentMemberSlug('my-own-page')).member?.profile?.slug).toBe('my-own-page');
    expect((await admin.members.updateMemberSlug(theirs, 'their-page')).member?.profile?.slug).toBe('their-page');
    expect(await failure(me.client.members.updateCurrentMemberSlug('their-page'))).toMatchObject({ status: 409, code: 'SLUG_ALREADY_EXISTS' });
    expect(await failure(admin.members.updateMemberSlug(theirs, 'my-own-page'))).toMatchObject({ status: 409, code: 'SLUG_ALREADY_EXISTS' });
    expect((await me.client.members.updateCurrentMemberSlug('my-own-page')).member?.profile?.slug).toBe('my-own-page');
    expect(await eventTypes(t, site, { entityId: mine })).toContain('member.updated');
  });

  it('accepts only lower-case letters, digits and dashes', async () => {
    const id = await newMember(admin);
    for (const slug of ['Upper', 'with space', 'under_score', '-dash', '']) {
      expect(await failure(admin.members.updateMemberSlug(id, slug))).toMatchObject({ status: 400, code: 'VALIDATION' });
    }
  });

  it('lets one of two members racing for a slug win', async () => {
    const a = await newMember(admin);
    const b = await newMember(admin);
    const results = await Promise.allSettled([admin.members.updateMemberSlug(a, 'contested'), admin.members.updateMemberSlug(b, 'contested')]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const loser = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(await failure(Promise.reject(loser.reason))).toMatchObject({ status: 409, code: 'SLUG_ALREADY_EXISTS' });
  });

  it('a member cannot change another member\'s slug', async () => {
    const me = await signIn(t, site, await newMember(admin));
    expect(await failure(me.client.members.updateMemberSlug(await newMember(admin), 'stolen'))).toMatchObject({ status: 403 });
  });
});

describe('joining and leaving the community', () => {
  it('moves PRIVATE → PUBLIC → PRIVATE and refuses the same move twice', async () => {
    const { site, admin } = await newSite(t);
    const id = await newMember(admin, { public: false });
    const me = await signIn(t, site, id);
    expect((await me.client.members.joinCommunity()).member?.privacyStatus).toBe('PUBLIC');
    expect(await failure(me.client.members.joinCommunity())).toMatchObject({ status: 409, code: 'INVALID_MEMBER_STATE' });
    expect((await visitorClient(site).members.getMember(id))._id).toBe(id);
    expect((await me.client.members.leaveCommunity()).member?.privacyStatus).toBe('PRIVATE');
    expect(await failure(me.client.members.leaveCommunity())).toMatchObject({ status: 409, code: 'INVALID_MEMBER_STATE' });
    expect(await failure(visitorClient(site).members.getMember(id))).toMatchObject({ status: 404 });
    expect(await eventTypes(t, site, { entityId: id })).toEqual(expect.arrayContaining(['member.joined_community', 'member.left_community']));
  });
});
