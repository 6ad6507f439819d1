/**
 * The members calls of spec §7 through the official `@wix/members` package, for each caller
 * kind: visitors and members (OAuthStrategy, edge host), owners and contributors (member tokens
 * with those roles: WIX_USER callers) and API keys (ApiKeyStrategy).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { listen, redirectWixFetch } from '../../test/wix-fetch.js';
import { adminClient, failure, newMember, setRole, signIn, uniqueEmail, visitorClient, type MembersClient } from '../../test/members.js';

let t: TestApp;
let wixFetch: ReturnType<typeof redirectWixFetch>;

beforeAll(async () => {
  t = await testApp();
  wixFetch = redirectWixFetch(await listen(t.app));
});
afterAll(async () => {
  wixFetch.restore();
  await t.close();
});

async function events(site: TestSite, entityId: string): Promise<string[]> {
  const rows = await t.db.query<{ type: string }>(
    'SELECT type FROM outbox_events WHERE site_id = $1 AND entity_id = $2 ORDER BY created_at, event_id', [site.siteId, entityId]);
  return rows.map((r) => r.type);
}

describe('creating, reading and updating members', () => {
  let site: TestSite;
  let admin: MembersClient;
  beforeAll(async () => {
    site = await t.createSite();
    admin = adminClient(site);
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
    expect(await events(site, created._id as string)).toContain('member.created');
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
    expect(await events(site, id)).toContain('member.updated');
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
