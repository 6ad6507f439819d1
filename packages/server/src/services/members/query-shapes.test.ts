/**
 * Member queries run as named prepared statements, one per query shape, up to a bound: a caller
 * who sends ever new filter shapes cannot make the server (or each database connection) hold ever
 * more statements, and a shape past the bound still answers, as plain SQL.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestSite } from '../../test/harness.js';
import { membersTestApp, newMember, newSite } from '../../test/members.js';
import { MAX_PREPARED_QUERY_SHAPES, preparedQueryShapes } from './store.js';

const t = membersTestApp();

describe(`member query shapes (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  let site: TestSite;
  const ids: string[] = [];
  beforeAll(async () => {
    let admin;
    ({ site, admin } = await newSite(t));
    for (const nickname of ['Shape Ann', 'Shape Bob', 'Other Cy']) ids.push(await newMember(admin, { nickname }));
  });

  const query = async (filter: unknown, token?: string) => {
    const res = await t.app.inject({
      method: 'POST', url: '/members/v1/members/query',
      headers: token ? { authorization: token } : { authorization: site.apiKey, 'wix-site-id': site.siteId },
      payload: { query: { filter, sort: [{ fieldName: 'profile.nickname', order: 'ASC' }] } },
    });
    expect(res.statusCode).toBe(200);
    return res.json() as { members: { id: string; profile: { nickname?: string } }[]; metadata: { total: number } };
  };

  it('answers every shape alike, past the bound too, and names no more than the bound', async () => {
    const before = preparedQueryShapes();
    const shapes = MAX_PREPARED_QUERY_SHAPES + 10;
    for (let n = 1; n <= shapes; n++) {
      // The same condition n times over: a new SQL text each time, the same answer.
      const filter = { $and: Array.from({ length: n }, () => ({ 'profile.nickname': { $startsWith: 'shape' } })) };
      const page = await query(filter);
      expect(page.members.map((m) => m.profile.nickname)).toEqual(['Shape Ann', 'Shape Bob']);
      expect(page.metadata.total).toBe(2);
    }
    expect(before).toBeLessThan(MAX_PREPARED_QUERY_SHAPES);
    expect(preparedQueryShapes()).toBe(MAX_PREPARED_QUERY_SHAPES);
    // A known shape still runs prepared, with new values.
    const again = await query({ $and: [{ 'profile.nickname': { $startsWith: 'other' } }] });
    expect(again.members.map((m) => m.id)).toEqual([ids[2]]);
  });

  it('a visitor page (no contact columns) shows the public fields only', async () => {
    const page = await query({ 'profile.nickname': { $startsWith: 'shape a' } }, await t.visitorToken(site));
    expect(page.members).toHaveLength(1);
    const [member] = page.members as unknown as Record<string, unknown>[];
    expect(Object.keys(member).sort()).toEqual(['activityStatus', 'contactId', 'createdDate', 'id', 'privacyStatus', 'profile', 'status', 'updatedDate']);
    expect(member).toMatchObject({ id: ids[0], contactId: ids[0], status: 'UNKNOWN', privacyStatus: 'UNKNOWN', activityStatus: 'UNKNOWN', profile: { nickname: 'Shape Ann', slug: 'shape-ann' } });
  });
});
