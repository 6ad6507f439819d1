/**
 * A PUBLIC members page is joined from each member's PUBLIC wire JSON, which PostgreSQL keeps
 * written in members.public_wire on every write of the row (migration 0406). Page and kept texts
 * must be exactly what the JS path (store.queryMembers, toWireMember, JSON.stringify) writes for
 * the same rows: members with every optional field present, absent, empty or malformed as stored,
 * dates with microseconds and before 1970, contact details and custom fields (which a PUBLIC page
 * never shows), private and pending members; and after every kind of write of a member.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { siteContext } from '../../platform/context.js';
import type { TestSite } from '../../test/harness.js';
import { membersTestApp, newMember, newSite, signIn, type MembersClient } from '../../test/members.js';
import { projectionFor, relationTo, type Viewer } from './access.js';
import { offsetMetadata } from './paging.js';
import * as store from './store.js';
import { toWireMember } from './wire.js';

const t = membersTestApp();
const PATHS = { filter: 'query.filter', sort: 'query.sort', search: 'search' };
const PUBLIC = projectionFor('OTHER', undefined);

/** Whether a stored profile's image holds a number PostgreSQL writes unlike JavaScript (0406 keeps no text then). */
function oddImageNumber(profile: Record<string, unknown>): boolean {
  return [profile.photo, profile.cover].some((image) => typeof image === 'object' && image !== null && !Array.isArray(image)
    && Object.values(image).some((n) => typeof n === 'number' && n !== 0 && !(Math.abs(n) >= 1e-4 && Math.abs(n) < 1e15)));
}

/** Every member of the site: its kept text is the JS answer's PUBLIC member, or absent for odd image numbers. Returns how many. */
async function expectKeptTexts(site: TestSite): Promise<number> {
  const ctx = siteContext(t.db, site.siteId, () => new Date());
  const { members } = await store.queryMembers(ctx, { admin: true, limit: 1000, offset: 0, paths: PATHS });
  const kept = await t.db.query<{ member_id: string; public_wire: string | null; profile: Record<string, unknown> }>(
    'SELECT member_id, public_wire, profile FROM members WHERE site_id = $1', [site.siteId]);
  expect(kept).toHaveLength(members.length);
  for (const row of kept) {
    const member = members.find((m) => m.memberId === row.member_id);
    const expected = oddImageNumber(row.profile) || !member ? null : JSON.stringify(toWireMember(member, PUBLIC, new Map()));
    expect(row.public_wire, row.member_id).toBe(expected);
  }
  return kept.length;
}

const contact = {
  firstName: 'Ann', lastName: 'Lee', birthdate: '1990-02-03', company: 'Acme', jobTitle: 'Boss',
  phones: [{ phone: '+1 555 0100', tag: 'MAIN' }], emails: [{ email: 'ann@example.com', tag: 'WORK' }],
  addresses: [{ id: 'a1', tag: 'HOME', city: 'Lyon', country: 'FR', streetAddress: { name: 'Rue', number: '3' } }],
  customFields: { hobby: { name: 'Hobby', value: 'chess' }, shoeSize: 42 },
};

/** Stored rows as written by this service, by the identity service, or by hand: [profile, contact, created, updated, last login, status, privacy]. */
const ROWS: [unknown, unknown, string, string, string | null, string, string][] = [
  [{}, {}, '2024-01-02 03:04:05.678999+00', '2024-01-02 03:04:05.678999+00', null, 'APPROVED', 'PUBLIC'],
  [{ nickname: 'Plain', title: 'Chef' }, contact, '2023-06-30 23:59:59.999999+02', '2025-12-31 23:59:59.9995+00', '2025-01-01 00:00:00+00', 'APPROVED', 'PUBLIC'],
  [{ nickname: '' , title: '' }, { phones: ['+1 555 0101'], emails: ['x@example.com'] }, '1969-07-20 20:17:40.123456+00', '1970-01-01 00:00:00+00', null, 'APPROVED', 'PUBLIC'],
  [{ nickname: 42, title: null, photo: 'not an image', cover: [] }, contact, '2001-09-09 01:46:40+00', '2001-09-09 01:46:40.001+00', null, 'APPROVED', 'PUBLIC'],
  [{ nickname: 'Quote " back \\ slash / nl \n tab \t ctl \u0001 \u001f del \u007f ls \u2028 é 😀' }, {}, '2020-02-29 12:00:00.5+00', '2020-02-29 12:00:00.05+00', null, 'APPROVED', 'PUBLIC'],
  [{ nickname: 'Imaged', photo: { id: 'p1', url: 'https://img.example/p.png', height: 100, width: 200.5, offsetX: 1.0, offsetY: -3 } }, {}, '2022-03-04 05:06:07+00', '2022-03-04 05:06:07+00', null, 'APPROVED', 'PUBLIC'],
  [{ nickname: 'Odd images', photo: { url: '', height: '7', width: null, offsetX: 0, offsetY: 0.25, extra: true }, cover: { id: '' } }, {}, '2022-03-04 05:06:08+00', '2022-03-04 05:06:08+00', null, 'APPROVED', 'PUBLIC'],
  [{ nickname: 'Empty images', photo: {}, cover: { height: 0.0001, width: 12345678901234.5 } }, {}, '2022-03-04 05:06:09+00', '2022-03-04 05:06:09+00', null, 'APPROVED', 'PUBLIC'],
  // Numbers PostgreSQL writes unlike JavaScript (exponents), or JavaScript reads as Infinity: the JS path writes these members.
  [{ nickname: 'Tiny', photo: { height: 1e-5, width: 1e-7, offsetX: 1e15, offsetY: 1e21 } }, {}, '2022-03-04 05:06:12+00', '2022-03-04 05:06:12+00', null, 'APPROVED', 'PUBLIC'],
  [{ nickname: 'Huge', cover: { width: 1e300 } }, {}, '2022-03-04 05:06:13+00', '2022-03-04 05:06:13+00', null, 'APPROVED', 'PUBLIC'],
  [{ nickname: 'Private', title: 'Hidden' }, contact, '2022-03-04 05:06:10+00', '2022-03-04 05:06:10+00', '2024-05-05 05:05:05.555+00', 'APPROVED', 'PRIVATE'],
  [{ nickname: 'Pending' }, contact, '2022-03-04 05:06:11+00', '2022-03-04 05:06:11+00', null, 'PENDING', 'PUBLIC'],
];

describe(`a PUBLIC members page written by PostgreSQL (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  let site: TestSite;
  let admin: MembersClient;
  beforeAll(async () => {
    ({ site, admin } = await newSite(t));
    for (const [i, [profile, stored, created, updated, lastLogin, status, privacy]] of ROWS.entries()) {
      await t.db.query(
        `INSERT INTO members (site_id, member_id, login_email, status, role, privacy_status, activity_status, slug, profile, contact,
           created_at, updated_at, last_login_at)
         VALUES ($1, $2, $3, $4, 'MEMBER', $5, 'ACTIVE', $6, $7::jsonb, $8::jsonb, $9, $10, $11)`,
        [site.siteId, `row-${i}`, `row${i}@example.com`, status, privacy, `row-${i}`, JSON.stringify(profile), JSON.stringify(stored), created, updated, lastLogin],
      );
    }
    // And members written by the API: with and without contact details and custom fields.
    await newMember(admin, { nickname: 'Through the API' });
    await newMember(admin, { nickname: 'Private through the API', public: false });
    await admin.members.createMember({
      member: {
        loginEmail: 'full@example.com', privacyStatus: 'PUBLIC',
        profile: { nickname: 'Full', title: 'Everything', photo: { url: 'https://img.example/f.png', height: 10, width: 20 } },
        contact: { firstName: 'Full', lastName: 'Member', phones: ['+1 555 0199'], emails: ['full.contact@example.com'], company: 'Co', birthdate: '1980-01-01' },
      },
    });
  });

  /** What the JS path writes for the same page: the rows as queryMembers reads them, toWireMember, JSON.stringify. */
  async function jsPage(viewer: Viewer, query: { filter?: unknown; sort?: unknown; limit: number; offset: number }): Promise<string> {
    const ctx = siteContext(t.db, site.siteId, () => new Date());
    const { members, total } = await store.queryMembers(ctx, {
      ...query, admin: viewer.kind === 'ADMIN', selfId: viewer.kind === 'MEMBER' ? viewer.memberId : undefined, paths: PATHS,
    });
    const wire = members.map((m) => toWireMember(m, projectionFor(relationTo(viewer, m.memberId), undefined), new Map()));
    return JSON.stringify({ members: wire, metadata: offsetMetadata(query, members.length, total) });
  }

  const ask = async (auth: Record<string, string>, query: { filter?: unknown; sort?: unknown; limit: number; offset: number }) => {
    const res = await t.app.inject({
      method: 'POST', url: '/members/v1/members/query', headers: auth,
      payload: { query: { filter: query.filter, sort: query.sort, paging: { limit: query.limit, offset: query.offset } } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    return res.body;
  };

  it('writes exactly the JS answer for an admin, who sees every member, on every page', async () => {
    const auth = { authorization: site.apiKey, 'wix-site-id': site.siteId };
    const admin: Viewer = { kind: 'ADMIN', role: 'APP' };
    for (const query of [
      { limit: 50, offset: 0 },
      { sort: [{ fieldName: 'profile.nickname', order: 'ASC' }], limit: 4, offset: 3 },
      { sort: [{ fieldName: 'createdDate', order: 'ASC' }], limit: 50, offset: 0 },
      { filter: { privacyStatus: 'PRIVATE' }, limit: 50, offset: 0 },
      { limit: 5, offset: 100 },
      { filter: { 'profile.nickname': 'nobody' }, limit: 5, offset: 0 },
    ]) {
      expect(await ask(auth, query)).toBe(await jsPage(admin, query));
    }
    const all = JSON.parse(await ask(auth, { limit: 50, offset: 0 })) as { members: unknown[]; metadata: { total: number } };
    expect(all.members).toHaveLength(ROWS.length + 3);
    expect(all.metadata.total).toBe(all.members.length);
  });

  it('writes exactly the JS answer for a visitor (public approved members only)', async () => {
    const auth = { authorization: await t.visitorToken(site) };
    const query = { sort: [{ fieldName: 'createdDate', order: 'DESC' }], limit: 50, offset: 0 };
    const body = await ask(auth, query);
    expect(body).toBe(await jsPage({ kind: 'VISITOR' }, query));
    // That page holds members with odd image numbers (written in JS); the oldest six have none (joined texts).
    const oldest = { sort: [{ fieldName: 'createdDate', order: 'ASC' }], limit: 6, offset: 0 };
    const ctx = siteContext(t.db, site.siteId, () => new Date());
    expect(await store.queryPublicPage(ctx, { ...oldest, admin: false, paths: PATHS })).toMatchObject({ count: 6 });
    expect(await ask(auth, oldest)).toBe(await jsPage({ kind: 'VISITOR' }, oldest));
    const page = JSON.parse(body) as { members: { id: string; profile: Record<string, unknown> }[] };
    expect(page.members.map((m) => m.profile.nickname)).not.toContain('Private');
    expect(page.members.map((m) => m.profile.nickname)).not.toContain('Pending');
    // Fields spot-checked against the stored rows, so that both paths cannot be wrong alike.
    expect(page.members.find((m) => m.id === 'row-0')).toEqual({
      id: 'row-0', contactId: 'row-0', status: 'UNKNOWN', privacyStatus: 'UNKNOWN', activityStatus: 'UNKNOWN',
      profile: { slug: 'row-0' }, createdDate: '2024-01-02T03:04:05.678Z', updatedDate: '2024-01-02T03:04:05.678Z',
    });
    expect(page.members.find((m) => m.id === 'row-2')).toMatchObject({ profile: { slug: 'row-2' }, createdDate: '1969-07-20T20:17:40.123Z', updatedDate: '1970-01-01T00:00:00.000Z' });
    expect(page.members.find((m) => m.id === 'row-5')?.profile.photo).toEqual({ id: 'p1', url: 'https://img.example/p.png', height: 100, width: 200.5, offsetX: 1, offsetY: -3 });
    expect(page.members.find((m) => m.id === 'row-6')?.profile).toEqual({ nickname: 'Odd images', slug: 'row-6', photo: { offsetX: 0, offsetY: 0.25 }, cover: {} });
    expect(page.members.find((m) => m.id === 'row-1')).toMatchObject({ createdDate: '2023-06-30T21:59:59.999Z', updatedDate: '2025-12-31T23:59:59.999Z' });
    expect(page.members.find((m) => m.id === 'row-1')).not.toHaveProperty('contact');
  });

  it('a GET list is written alike, and a page asking for more than PUBLIC is still built in JS with contact details', async () => {
    const auth = { authorization: site.apiKey, 'wix-site-id': site.siteId };
    const list = await t.app.inject({ method: 'GET', url: '/members/v1/members?paging.limit=3&paging.offset=1', headers: auth });
    expect(list.statusCode).toBe(200);
    expect(list.body).toBe(await jsPage({ kind: 'ADMIN', role: 'APP' }, { limit: 3, offset: 1 }));
    const full = await t.app.inject({
      method: 'POST', url: '/members/v1/members/query', headers: auth,
      payload: { fieldsets: ['FULL'], query: { filter: { 'profile.nickname': 'Plain' } } },
    });
    expect(full.statusCode).toBe(200);
    const [member] = (full.json() as { members: Record<string, unknown>[] }).members;
    expect(member).toMatchObject({ status: 'APPROVED', lastLoginDate: '2025-01-01T00:00:00.000Z', contact: { firstName: 'Ann', phones: ['+1 555 0100'] } });
  });

  it('keeps the text of each stored member exactly, none for odd image numbers, and a page holding such a member is written in JS', async () => {
    expect(await expectKeptTexts(site)).toBe(ROWS.length + 3);
    const ctx = siteContext(t.db, site.siteId, () => new Date());
    const page = (filter: unknown) => store.queryPublicPage(ctx, { filter, admin: true, limit: 50, offset: 0, paths: PATHS });
    expect(await page({ 'profile.nickname': 'Tiny' })).toBeUndefined();
    expect(await page({ 'profile.nickname': 'Imaged' })).toMatchObject({ count: 1, total: 1 });
    expect(await page({ 'profile.nickname': 'nobody' })).toEqual({ members: '', count: 0, total: 0 });
  });
});

describe(`each member's PUBLIC text kept by PostgreSQL through every write (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('is exact after creates, updates of every field, slug, status, privacy, role, contact and hand-written changes', async () => {
    const { site, admin } = await newSite(t);
    const api = (method: 'POST' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
      t.app.inject({ method, url, headers: { authorization: site.apiKey, 'wix-site-id': site.siteId }, payload });
    const id = await newMember(admin, { nickname: 'First' });
    const other = await newMember(admin, { nickname: 'Other', public: false });
    let checks = await expectKeptTexts(site);
    // Registration writes the member row in the identity service.
    const registered = await t.app.inject({
      method: 'POST', url: '/_api/iam/authentication/v2/register', headers: { authorization: await t.visitorToken(site) },
      payload: { loginId: { email: 'kept.text@example.com' }, password: 'a-good-password', profile: { nickname: 'Signed "up" \u2028' } },
    });
    expect(registered.statusCode).toBe(200);
    checks += await expectKeptTexts(site);
    const steps: (() => Promise<unknown>)[] = [
      () => admin.members.updateMember(id, { profile: { nickname: 'Renamed é 😀', title: 'Chef' } }),
      () => admin.members.updateMember(id, { profile: { photo: { url: 'https://img.example/a.png', height: 10, width: 20.5 } } }),
      () => admin.members.updateMember(id, { profile: { cover: { _id: 'c1', url: 'https://img.example/c.png', offsetX: -3, offsetY: 0.5 } } }),
      () => admin.members.updateMember(id, { profile: { title: '' } }),
      () => admin.members.updateMember(id, { contact: { firstName: 'Ann', phones: ['+1 555 0100'], emails: ['ann@example.com'] } }),
      () => admin.members.updateMemberSlug(id, 'kept-slug'),
      () => admin.members.blockMember(id),
      () => admin.members.approveMember(id),
      () => admin.members.muteMember(id),
      () => admin.members.unmuteMember(id),
      () => admin.members.deleteMemberPhones(id),
      () => api('POST', `/members/v1/members/${id}/role`, { role: 'CONTRIBUTOR' }),
      async () => (await signIn(t, site, other)).client.members.joinCommunity(),
      async () => (await signIn(t, site, other)).client.members.updateCurrentMemberSlug('other-slug'),
      async () => (await signIn(t, site, other)).client.members.leaveCommunity(),
      () => admin.members.bulkBlockMembers({ 'profile.nickname': 'Other' }),
      () => admin.members.bulkApproveMembers({ 'profile.nickname': 'Other' }),
      // Odd image numbers (no kept text), then ordinary ones again.
      () => t.db.query(`UPDATE members SET profile = jsonb_set(profile, '{photo,height}', '1e-5') WHERE site_id = $1 AND member_id = $2`, [site.siteId, id]),
      () => t.db.query(`UPDATE members SET profile = jsonb_set(profile, '{photo,height}', '12'), updated_at = now() WHERE site_id = $1 AND member_id = $2`, [site.siteId, id]),
      () => t.db.query(`UPDATE members SET created_at = '1969-12-31 23:59:59.9999+00', slug = 'hand-made' WHERE site_id = $1 AND member_id = $2`, [site.siteId, other]),
    ];
    for (const step of steps) {
      await step();
      checks += await expectKeptTexts(site);
    }
    expect(checks).toBe(3 * (steps.length + 2) - 1);
    const kept = await t.db.query<{ public_wire: string }>('SELECT public_wire FROM members WHERE site_id = $1 AND member_id = $2', [site.siteId, id]);
    expect(JSON.parse(kept[0].public_wire)).toMatchObject({
      id, profile: { nickname: 'Renamed é 😀', slug: 'kept-slug', photo: { url: 'https://img.example/a.png', height: 12, width: 20.5 } },
    });
  });
});
