// A member's standing (role, status, existence, sign-out epoch) is read from their member row on
// every call, never taken from the token: a change takes effect on the very next call, in this
// server and (PostgreSQL) in every other server on the same database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { testApp, testDb, type TestApp } from '../../test/harness.js';
import { backOfficeSite, type BackOfficeSite } from '../../test/backoffice.js';
import type { MemberRole } from '../../platform/caller.js';
import type { Db } from '../../platform/db.js';
import { ACCESS_CACHE_UNHEARD_MS, MemberAccess } from './access.js';

/** The suite runs on a Citus coordinator (.ci/run's Citus pass sets it). */
const CITUS = process.env.BODEGA_CITUS === '1';

let t: TestApp;

beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => t.close());

type Headers = Record<string, string>;

async function bearer(app: FastifyInstance, s: BackOfficeSite, memberId: string, memberRole: MemberRole): Promise<Headers> {
  const grant = await app.services.oauth.startSession(app.services.sites.contextFor(s.site.siteId), {
    clientId: s.site.clientId, role: 'member', subjectId: memberId, memberRole,
  });
  return { authorization: `Bearer ${grant.access_token}` };
}

async function status(app: FastifyInstance, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, headers: Headers, payload?: unknown): Promise<number> {
  const res = await app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  return res.statusCode;
}

/** The calls a contributor may make and a member may not (reads of staff data, and writes). */
const CONTRIBUTOR_CALLS = [
  { method: 'GET', url: '/bodega/v1/exports/members.csv' },
  { method: 'GET', url: '/bodega/v1/mail-outbox' },
  { method: 'POST', url: '/bodega/v1/products/query', payload: {} },
] as const;

async function contributorCalls(app: FastifyInstance, headers: Headers): Promise<number[]> {
  const answers: number[] = [];
  for (const call of CONTRIBUTOR_CALLS) answers.push(await status(app, call.method, call.url, headers, 'payload' in call ? call.payload : undefined));
  return answers;
}

async function changeRole(app: FastifyInstance, s: BackOfficeSite, memberId: string, role: MemberRole): Promise<void> {
  const res = await app.inject({ method: 'POST', url: `/members/v1/members/${memberId}/role`, headers: s.headers.apiKey, payload: { role } });
  expect(res.statusCode, res.body).toBe(200);
}

async function moderate(app: FastifyInstance, s: BackOfficeSite, memberId: string, action: 'block' | 'delete'): Promise<void> {
  const res = action === 'delete'
    ? await app.inject({ method: 'DELETE', url: `/members/v1/members/${memberId}`, headers: s.headers.apiKey })
    : await app.inject({ method: 'POST', url: `/members/v1/members/${memberId}/block`, headers: s.headers.apiKey, payload: {} });
  expect(res.statusCode, res.body).toBe(200);
}

const NEW_KEY = { method: 'POST', url: '/bodega/v1/api-keys', payload: { name: 'way back in' } } as const;

describe('a member\'s standing now, in one server', () => {
  it('takes a demoted contributor\'s back office away on their next call', async () => {
    const s = await backOfficeSite(t);
    const headers = await bearer(t.app, s, s.contributorId, 'CONTRIBUTOR');
    expect(await contributorCalls(t.app, headers), 'the contributor first').toEqual([200, 200, 200]);
    await changeRole(t.app, s, s.contributorId, 'MEMBER');
    expect(await contributorCalls(t.app, headers)).toEqual([403, 403, 403]);
    expect(await status(t.app, 'GET', '/bodega/v1/webhooks', headers)).toBe(403);
    expect(await status(t.app, 'PATCH', '/_api/bodega/v1/site-settings', headers, { settings: { name: 'Mine now' } })).toBe(403);
    expect(await status(t.app, 'GET', '/members/v1/members/my', headers), 'still a member').toBe(200);
  });

  it('refuses a demoted owner a new API key', async () => {
    const s = await backOfficeSite(t);
    await changeRole(t.app, s, s.contributorId, 'OWNER');
    const second = await bearer(t.app, s, s.contributorId, 'OWNER');
    expect(await status(t.app, NEW_KEY.method, NEW_KEY.url, second, NEW_KEY.payload), 'the second owner first').toBe(200);
    await changeRole(t.app, s, s.contributorId, 'CONTRIBUTOR');
    expect(await status(t.app, NEW_KEY.method, NEW_KEY.url, second, NEW_KEY.payload)).toBe(403);
    expect(await status(t.app, 'GET', '/bodega/v1/api-keys', second)).toBe(403);
    expect(await contributorCalls(t.app, second), 'a contributor now').toEqual([200, 200, 200]);
  });

  it('answers a deleted member\'s tokens 401', async () => {
    const s = await backOfficeSite(t);
    const headers = await bearer(t.app, s, s.contributorId, 'CONTRIBUTOR');
    expect(await status(t.app, 'GET', '/bodega/v1/me', headers)).toBe(200);
    await moderate(t.app, s, s.contributorId, 'delete');
    expect(await status(t.app, 'GET', '/bodega/v1/me', headers)).toBe(401);
    expect(await status(t.app, 'GET', '/members/v1/members/my', headers)).toBe(401);
    expect(await contributorCalls(t.app, headers)).toEqual([401, 401, 401]);
  });

  it('answers a blocked member\'s tokens 401', async () => {
    const s = await backOfficeSite(t);
    const headers = await bearer(t.app, s, s.contributorId, 'CONTRIBUTOR');
    expect(await status(t.app, 'GET', '/bodega/v1/me', headers)).toBe(200);
    await moderate(t.app, s, s.contributorId, 'block');
    expect(await contributorCalls(t.app, headers)).toEqual([401, 401, 401]);
  });

  it('hands the site over: the old owner, demoted by the new one, loses the owner\'s calls at once', async () => {
    const s = await backOfficeSite(t);
    const old = await bearer(t.app, s, s.ownerId, 'OWNER');
    expect(await status(t.app, 'GET', '/bodega/v1/api-keys', old)).toBe(200);
    await changeRole(t.app, s, s.contributorId, 'OWNER');
    const next = await bearer(t.app, s, s.contributorId, 'OWNER');
    const demoted = await t.app.inject({ method: 'POST', url: `/members/v1/members/${s.ownerId}/role`, headers: next, payload: { role: 'MEMBER' } });
    expect(demoted.statusCode, demoted.body).toBe(200);
    expect(await status(t.app, NEW_KEY.method, NEW_KEY.url, old, NEW_KEY.payload)).toBe(403);
    expect(await status(t.app, 'GET', '/bodega/v1/me', old)).toBe(403);
    expect(await status(t.app, 'GET', '/bodega/v1/api-keys', next)).toBe(200);
  });

  it('ends every access token issued before the member is signed out everywhere, and lets them sign in again', async () => {
    const s = await backOfficeSite(t);
    const before = await bearer(t.app, s, s.memberId, 'MEMBER');
    expect(await status(t.app, 'GET', '/members/v1/members/my', before)).toBe(200);
    await t.app.services.identity.endAllSessions(t.app.services.sites.contextFor(s.site.siteId), s.memberId);
    expect(await status(t.app, 'GET', '/members/v1/members/my', before)).toBe(401);
    const after = await bearer(t.app, s, s.memberId, 'MEMBER');
    expect(await status(t.app, 'GET', '/members/v1/members/my', after)).toBe(200);
  });

  // On Citus the members trigger would notify on a worker: servers there do not listen (app.ts).
  it.runIf(!CITUS)('hears a change made by hand-written SQL (the members trigger\'s notice), not only the services\' own', async () => {
    const s = await backOfficeSite(t);
    const headers = await bearer(t.app, s, s.contributorId, 'CONTRIBUTOR');
    expect(await status(t.app, 'GET', '/bodega/v1/me', headers)).toBe(200);
    const heard = t.app.services.identity.whenAccessChangeHeard({ siteId: s.site.siteId }, s.contributorId);
    await t.db.query("UPDATE members SET role = 'MEMBER' WHERE site_id = $1 AND member_id = $2", [s.site.siteId, s.contributorId]);
    await heard;
    expect(await status(t.app, 'GET', '/bodega/v1/me', headers)).toBe(403);
  });

  it('keeps an answer at most ACCESS_CACHE_UNHEARD_MS where no notice can be heard (behind a transaction pooler)', async () => {
    const s = await backOfficeSite(t);
    let clock = new Date('2026-06-01T00:00:00Z').getTime();
    const deaf = new MemberAccess(() => new Date(clock));
    const ctx = t.app.services.sites.contextFor(s.site.siteId);
    expect(deaf.feedState).toBe('deaf');
    expect((await deaf.standing(ctx, s.contributorId))?.role).toBe('CONTRIBUTOR');
    await t.db.query("UPDATE members SET role = 'MEMBER' WHERE site_id = $1 AND member_id = $2", [s.site.siteId, s.contributorId]);
    clock += ACCESS_CACHE_UNHEARD_MS - 1;
    expect((await deaf.standing(ctx, s.contributorId))?.role, 'still cached').toBe('CONTRIBUTOR');
    clock += 1;
    expect((await deaf.standing(ctx, s.contributorId))?.role).toBe('MEMBER');
  });
});

describe('what the check costs', () => {
  it('runs no SQL statement for a member\'s standing once it is cached, and one after a change', async () => {
    const base = await testDb();
    let statements = 0;
    const counting: Db = {
      ...base,
      kind: base.kind,
      query: (sql, params) => { statements++; return base.query(sql, params); },
      transaction: (fn) => base.transaction(fn),
      exec: (sql) => base.exec(sql),
      close: () => base.close(),
      ...(base.listen && { listen: base.listen.bind(base) }),
    };
    const c = await testApp({ db: counting, routes: (app) => app.get('/test/who', { config: { access: 'staff' } }, async (req) => ({ kind: req.caller?.kind })) });
    try {
      const s = await backOfficeSite(c);
      const headers = await bearer(c.app, s, s.contributorId, 'CONTRIBUTOR');
      expect(await status(c.app, 'GET', '/test/who', headers)).toBe(200);
      statements = 0;
      expect(await status(c.app, 'GET', '/test/who', headers)).toBe(200);
      expect(statements, 'a warm call').toBe(0);
      await changeRole(c.app, s, s.contributorId, 'MEMBER');
      statements = 0;
      expect(await status(c.app, 'GET', '/test/who', headers)).toBe(403);
      expect(statements, 'the first call after a change reads the member row once').toBe(1);
    } finally {
      await c.close();
      await base.close();
    }
  });
});

// Two app instances, each with its own connections and cache, on one PostgreSQL database: the
// change is made through A, the next call goes to B. B's clock stands still, so no cache entry
// of B can expire: only the members trigger's notice can tell B.
describe.runIf(CITUS)('a member\'s standing on Citus', () => {
  it('is not listened for (the notice would come from a worker); the cache\'s age bounds it', () => {
    expect(t.app.services.identity.accessFeed).toBe('deaf');
  });
});

describe.runIf(process.env.DATABASE_URL && !CITUS)('a member\'s standing now, seen by a second server', () => {
  let b: TestApp;
  const frozen = new Date();

  beforeAll(async () => {
    b = await testApp({ now: () => frozen });
  });
  afterAll(async () => b.close());

  /** Makes the change through A and waits until B has heard of it; B's next call must see it. */
  async function throughA(s: BackOfficeSite, memberId: string, change: () => Promise<void>): Promise<void> {
    const heard = b.app.services.identity.whenAccessChangeHeard({ siteId: s.site.siteId }, memberId);
    await change();
    await heard;
  }

  it('listens', () => {
    expect(b.app.services.identity.accessFeed).toBe('heard');
  });

  it('demotion', async () => {
    const s = await backOfficeSite(t);
    const headers = await bearer(b.app, s, s.contributorId, 'CONTRIBUTOR');
    expect(await contributorCalls(b.app, headers), 'B knows the contributor (and caches it)').toEqual([200, 200, 200]);
    await throughA(s, s.contributorId, () => changeRole(t.app, s, s.contributorId, 'MEMBER'));
    expect(await contributorCalls(b.app, headers)).toEqual([403, 403, 403]);
  });

  it('deletion', async () => {
    const s = await backOfficeSite(t);
    const headers = await bearer(b.app, s, s.contributorId, 'CONTRIBUTOR');
    expect(await status(b.app, 'GET', '/bodega/v1/me', headers)).toBe(200);
    await throughA(s, s.contributorId, () => moderate(t.app, s, s.contributorId, 'delete'));
    expect(await status(b.app, 'GET', '/bodega/v1/me', headers)).toBe(401);
  });

  it('block', async () => {
    const s = await backOfficeSite(t);
    const headers = await bearer(b.app, s, s.contributorId, 'CONTRIBUTOR');
    expect(await status(b.app, 'GET', '/bodega/v1/me', headers)).toBe(200);
    await throughA(s, s.contributorId, () => moderate(t.app, s, s.contributorId, 'block'));
    expect(await status(b.app, 'GET', '/bodega/v1/me', headers)).toBe(401);
  });

  it('owner transfer', async () => {
    const s = await backOfficeSite(t);
    const old = await bearer(b.app, s, s.ownerId, 'OWNER');
    expect(await status(b.app, 'GET', '/bodega/v1/api-keys', old)).toBe(200);
    await changeRole(t.app, s, s.contributorId, 'OWNER');
    const next = await bearer(t.app, s, s.contributorId, 'OWNER');
    await throughA(s, s.ownerId, async () => {
      const res = await t.app.inject({ method: 'POST', url: `/members/v1/members/${s.ownerId}/role`, headers: next, payload: { role: 'CONTRIBUTOR' } });
      expect(res.statusCode, res.body).toBe(200);
    });
    expect(await status(b.app, NEW_KEY.method, NEW_KEY.url, old, NEW_KEY.payload)).toBe(403);
    expect(await status(b.app, 'GET', '/bodega/v1/me', old), 'a contributor now').toBe(200);
  });

  it('sign out everywhere', async () => {
    const s = await backOfficeSite(t);
    const headers = await bearer(b.app, s, s.memberId, 'MEMBER');
    expect(await status(b.app, 'GET', '/members/v1/members/my', headers)).toBe(200);
    await throughA(s, s.memberId, () => t.app.services.identity.endAllSessions(t.app.services.sites.contextFor(s.site.siteId), s.memberId));
    expect(await status(b.app, 'GET', '/members/v1/members/my', headers)).toBe(401);
  });
});
