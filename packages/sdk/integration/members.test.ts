/**
 * `members` of @bodega/sdk against a real server: what a visitor, a signed-in member and an API
 * key see and may do — current member, offset query paging by `metadata.total`, `.r` lists,
 * updates, slugs, community, moderation and deletion — and argument names in errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members, type Member } from '@bodega/sdk';
import { adminClient, rejection, signUp, startServer, uniqueEmail, visitorClient, type Server, type TestSite } from './support.js';

let server: Server;
let site: TestSite;
let admin: ReturnType<typeof adminOf>;
const ids: Record<string, string> = {};

const adminOf = (s: TestSite) => adminClient(server.origin, s, { members });
const visitorOf = (s: TestSite) => visitorClient(server.origin, s, { members });

async function create(a: ReturnType<typeof adminOf>, nickname: string, privacyStatus: 'PUBLIC' | 'PRIVATE' = 'PUBLIC'): Promise<string> {
  const member = await a.members.createMember({
    member: { loginEmail: uniqueEmail(nickname.toLowerCase().replace(/\W+/g, '-')), profile: { nickname }, privacyStatus },
  });
  expect(member._createdDate).toBeInstanceOf(Date);
  return member._id ?? '';
}

beforeAll(async () => {
  server = await startServer();
  site = await server.createSite();
  admin = adminOf(site);
  for (const name of ['Alpha', 'Bravo', 'Charlie']) ids[name] = await create(admin, name);
  ids.Hidden = await create(admin, 'Hidden', 'PRIVATE');
});
afterAll(() => server.close());

const nicknames = (list: readonly Member[]) => list.map((m) => m.profile?.nickname);

describe('a visitor', () => {
  it('pages public members by metadata.total and reads one; never a private one or "my member"', async () => {
    const visitor = visitorOf(site);
    const first = await visitor.members.queryMembers().ascending('profile.nickname').limit(2).find();
    expect(nicknames(first.items)).toEqual(['Alpha', 'Bravo']);
    expect([first.totalCount, first.hasNext(), first.hasPrev()]).toEqual([3, true, false]);
    const second = await first.next();
    expect(nicknames(second.items)).toEqual(['Charlie']);
    expect(second.hasNext()).toBe(false);
    expect(nicknames((await second.prev()).items)).toEqual(['Alpha', 'Bravo']);

    const filtered = await visitor.members.queryMembers().startsWith('profile.nickname', 'b').find();
    expect(nicknames(filtered.items)).toEqual(['Bravo']);
    const notAlpha = await visitor.members.queryMembers().not(visitor.members.queryMembers().eq('_id', ids.Alpha)).ascending('profile.nickname').find();
    expect(nicknames(notAlpha.items)).toEqual(['Bravo', 'Charlie']);
    const direct = await visitor.members.queryMembers({ filter: { 'profile.nickname': 'Charlie' }, paging: { limit: 5, offset: 0 } });
    expect(direct.members.map((m) => m._id)).toEqual([ids.Charlie]);
    expect(direct.metadata?.total).toBe(1);

    const listed = await visitor.members.listMembers({
      paging: { limit: 10, offset: 0 }, fieldsets: ['PUBLIC'], sorting: [{ fieldName: 'profile.nickname', order: 'DESC' }],
    });
    expect(nicknames(listed.members)).toEqual(['Charlie', 'Bravo', 'Alpha']);
    expect(listed.metadata).toMatchObject({ total: 3, count: 3, offset: 0 });

    const alpha = await visitor.members.getMember(ids.Alpha, { fieldsets: ['FULL'] });
    expect(alpha).toMatchObject({ _id: ids.Alpha, profile: { nickname: 'Alpha' } });
    expect(alpha.loginEmail).toBeUndefined();
    const hidden = await rejection(visitor.members.getMember(ids.Hidden));
    expect([hidden.status, hidden.details.applicationError?.code]).toEqual([404, 'MEMBER_NOT_FOUND']);
    // A visitor may ask for "my member" and gets none (as the official docs allow).
    expect((await visitor.members.getCurrentMember()).member).toBeUndefined();
    const filterOnEmail = await rejection(visitor.members.queryMembers().eq('loginEmail', 'x@example.com').find());
    expect(filterOnEmail.status).toBe(400);
  });
});

describe('a signed-in member', () => {
  it('reads and updates themself, changes slug, joins and leaves the community, and deletes their member', async () => {
    const client = visitorOf(site);
    const { email } = await signUp(client.auth, server.origin);
    const { member: me } = await client.members.getCurrentMember({ fieldsets: ['FULL'] });
    expect(me).toMatchObject({ loginEmail: email, status: 'APPROVED' });
    const myId = me?._id ?? '';

    const updated = await client.members.updateMember(myId, { profile: { nickname: 'Renamed', title: 'Buyer' } });
    expect(updated.profile).toMatchObject({ nickname: 'Renamed', title: 'Buyer' });
    const refused = await rejection(client.members.updateMember(ids.Alpha, { profile: { nickname: 'Mine now' } }));
    expect(refused.status).toBe(403);

    expect((await client.members.updateCurrentMemberSlug('my-own-page')).member?.profile?.slug).toBe('my-own-page');
    await admin.members.updateMemberSlug(ids.Bravo, 'bravo-page');
    const taken = await rejection(client.members.updateCurrentMemberSlug('bravo-page'));
    expect([taken.status, taken.details.applicationError?.code]).toEqual([409, 'SLUG_ALREADY_EXISTS']);
    expect(taken.message).toContain(String(taken.details.applicationError?.description));
    expect((await rejection(client.members.updateMemberSlug(ids.Charlie, 'stolen'))).status).toBe(403);
    const badSlug = await rejection(client.members.updateCurrentMemberSlug('Not A Slug'));
    expect(badSlug.status).toBe(400);

    const privacy = me?.privacyStatus;
    const first = privacy === 'PUBLIC' ? await client.members.leaveCommunity() : await client.members.joinCommunity();
    expect(first.member?.privacyStatus).toBe(privacy === 'PUBLIC' ? 'PRIVATE' : 'PUBLIC');
    const back = privacy === 'PUBLIC' ? await client.members.joinCommunity() : await client.members.leaveCommunity();
    expect(back.member?.privacyStatus).toBe(privacy);

    await client.members.deleteMyMember();
    expect((await rejection(admin.members.getMember(myId))).status).toBe(404);
  });
});

describe('an API key', () => {
  it('creates, reads whole, updates and clears contact lists; names arguments in errors', async () => {
    const id = await create(admin, 'Delta');
    const viaBuilder = await admin.members.queryMembers({ fieldsets: ['FULL'] }).eq('_id', id).find();
    expect(viaBuilder.items.map((m) => [m._id, m.loginEmail])).toEqual([[id, expect.stringContaining('@example.com')]]);
    const full = await admin.members.getMember(id, { fieldsets: ['FULL'] });
    expect(full).toMatchObject({ _id: id, status: 'APPROVED', privacyStatus: 'PUBLIC', loginEmail: expect.any(String) });
    const updated = await admin.members.updateMember(id, {
      contact: { firstName: 'Dee', phones: ['+1 555 0100'], emails: ['dee@example.com'], addresses: [{ city: 'Paris', country: 'FR' }] },
    });
    expect(updated.contact).toMatchObject({ firstName: 'Dee', phones: ['+1 555 0100'] });
    expect((await admin.members.deleteMemberPhones(id)).member?.contact?.phones ?? []).toEqual([]);
    expect((await admin.members.deleteMemberEmails(id)).member?.contact?.emails ?? []).toEqual([]);
    expect((await admin.members.deleteMemberAddresses(id)).member?.contact?.addresses ?? []).toEqual([]);

    const noEmail = await rejection(admin.members.createMember({ member: { profile: { nickname: 'No mail' } } }));
    expect(noEmail.status).toBe(400);
    expect(noEmail.message).toMatch(/^INVALID_ARGUMENT: "options\.member\.loginEmail" /);
    const duplicate = await rejection(admin.members.createMember({ member: { loginEmail: full.loginEmail } }));
    expect(duplicate.status).toBe(409);
    // A list query beyond 4000 characters (and under the 8 KB URL limit) stays a GET (a POST here would be createMember).
    const sorting = Array.from({ length: 60 }, (_, i) => ({ fieldName: `profile.field${i}.${'x'.repeat(30)}`, order: 'ASC' as const }));
    const long = await rejection(admin.members.listMembers({ sorting }));
    expect(long.status).toBe(400);
    expect(long.details.validationError?.fieldViolations).toEqual([expect.objectContaining({ field: 'options.sorting', violatedRule: 'MAX_SIZE' })]);
    const unknown = await rejection(admin.members.getMember('00000000-0000-0000-0000-000000000001'));
    expect([unknown.status, unknown.details.applicationError?.code]).toEqual([404, 'MEMBER_NOT_FOUND']);
  });

  it('mutes, blocks, approves, disconnects and deletes; bulk by id and by filter', async () => {
    const s = await server.createSite();
    const a = adminOf(s);
    const m = await create(a, 'Mod');
    expect((await a.members.muteMember(m)).member?.activityStatus).toBe('MUTED');
    expect((await a.members.unmuteMember(m)).member?.activityStatus).toBe('ACTIVE');
    expect((await a.members.blockMember(m)).member?.status).toBe('BLOCKED');
    expect((await a.members.approveMember(m)).member?.status).toBe('APPROVED');
    expect((await a.members.disconnectMember(m)).member?.status).toBe('OFFLINE');
    await a.members.deleteMember(m);
    expect((await rejection(a.members.getMember(m))).status).toBe(404);

    const spam = [await create(a, 'Spam One'), await create(a, 'Spam Two')];
    const keep = await create(a, 'Keeper');
    const blocked = await a.members.bulkBlockMembers({ 'profile.nickname': { $startsWith: 'spam' } });
    expect(blocked.jobId).toEqual(expect.any(String));
    expect((await a.members.getMember(spam[0], { fieldsets: ['FULL'] })).status).toBe('BLOCKED');
    await a.members.bulkApproveMembers({ status: 'BLOCKED' });
    expect((await a.members.getMember(spam[1], { fieldsets: ['FULL'] })).status).toBe('APPROVED');
    const byFilter = await a.members.bulkDeleteMembersByFilter({}, { search: { expression: 'spam' } });
    expect(byFilter.jobId).toEqual(expect.any(String));
    const missing = '00000000-0000-0000-0000-000000000002';
    const bulk = await a.members.bulkDeleteMembers([keep, missing]);
    expect(bulk.results?.map((r) => (r.itemMetadata as { success?: boolean }).success)).toEqual([true, false]);
    expect((await a.members.queryMembers().find()).items).toEqual([]);
  });
});
