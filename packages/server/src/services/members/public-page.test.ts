/**
 * A PUBLIC members page is written as JSON by PostgreSQL (store.ts PUBLIC_WIRE_MEMBER). Its text
 * must be exactly what the JS path (toMember + toWireMember + JSON.stringify) writes for the same
 * rows: members with every optional field present, absent, empty or malformed as stored, dates
 * with microseconds and before 1970, contact details and custom fields (which a PUBLIC page never
 * shows), private and pending members.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { siteContext } from '../../platform/context.js';
import type { TestSite } from '../../test/harness.js';
import { membersTestApp, newMember, newSite, type MembersClient } from '../../test/members.js';
import { projectionFor, relationTo, type Viewer } from './access.js';
import { offsetMetadata } from './paging.js';
import * as store from './store.js';
import { toWireMember } from './wire.js';

const t = membersTestApp();

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

  /** What the JS path writes for the same page: the rows as queryMembers reads them (both column sets), toWireMember, JSON.stringify. */
  async function jsPage(viewer: Viewer, query: { filter?: unknown; sort?: unknown; limit: number; offset: number }): Promise<string[]> {
    const ctx = siteContext(t.db, site.siteId, () => new Date());
    const answers: string[] = [];
    for (const withContact of [false, true]) {
      const { members, total } = await store.queryMembers(ctx, {
        ...query, admin: viewer.kind === 'ADMIN', selfId: viewer.kind === 'MEMBER' ? viewer.memberId : undefined, withContact,
        paths: { filter: 'query.filter', sort: 'query.sort', search: 'search' },
      });
      const wire = members.map((m) => toWireMember(m, projectionFor(relationTo(viewer, m.memberId), undefined), new Map()));
      answers.push(JSON.stringify({ members: wire, metadata: offsetMetadata(query, members.length, total) }));
    }
    return answers;
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
      const body = await ask(auth, query);
      const [publicColumns, allColumns] = await jsPage(admin, query);
      expect(body).toBe(publicColumns);
      expect(body).toBe(allColumns);
    }
    const all = JSON.parse(await ask(auth, { limit: 50, offset: 0 })) as { members: unknown[]; metadata: { total: number } };
    expect(all.members).toHaveLength(ROWS.length + 3);
    expect(all.metadata.total).toBe(all.members.length);
  });

  it('writes exactly the JS answer for a visitor (public approved members only)', async () => {
    const auth = { authorization: await t.visitorToken(site) };
    const query = { sort: [{ fieldName: 'createdDate', order: 'DESC' }], limit: 50, offset: 0 };
    const body = await ask(auth, query);
    expect(body).toBe((await jsPage({ kind: 'VISITOR' }, query))[0]);
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
    expect(list.body).toBe((await jsPage({ kind: 'ADMIN', role: 'APP' }, { limit: 3, offset: 1 }))[0]);
    const full = await t.app.inject({
      method: 'POST', url: '/members/v1/members/query', headers: auth,
      payload: { fieldsets: ['FULL'], query: { filter: { 'profile.nickname': 'Plain' } } },
    });
    expect(full.statusCode).toBe(200);
    const [member] = (full.json() as { members: Record<string, unknown>[] }).members;
    expect(member).toMatchObject({ status: 'APPROVED', lastLoginDate: '2025-01-01T00:00:00.000Z', contact: { firstName: 'Ann', phones: ['+1 555 0100'] } });
  });
});
