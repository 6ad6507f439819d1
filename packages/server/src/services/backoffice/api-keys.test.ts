import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../test/harness.js';
import { backOfficeSite, type BackOfficeSite } from '../../test/backoffice.js';
import { KEY_USE_RESOLUTION_MS, SitesService } from '../sites/service.js';

// The clock the app reads; tests move it on instead of waiting.
let clock = Date.parse('2026-03-02T10:00:00Z');
const now = () => new Date(clock);
const MINUTE = 60_000;

let t: TestApp;
let s: BackOfficeSite;

beforeAll(async () => {
  t = await testApp({ now });
  s = await backOfficeSite(t);
});
afterAll(async () => t.close());

/** Read with the site's own key (the owner's access token would expire as the clock moves on). */
async function lastUsed(keyId: string): Promise<string | undefined> {
  await t.app.services.sites.settled(); // the write runs beside the request that used the key
  const res = await t.app.inject({ method: 'GET', url: '/bodega/v1/api-keys', headers: s.headers.apiKey });
  expect(res.statusCode, res.body).toBe(200);
  const key = (res.json() as { apiKeys: { id: string; lastUsedDate?: string }[] }).apiKeys.find((k) => k.id === keyId);
  expect(key, `key ${keyId} is listed`).toBeDefined();
  return key?.lastUsedDate;
}

describe("an API key's last use", () => {
  it('is recorded on first use, then at most once an hour however often the key is used', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/bodega/v1/api-keys', headers: s.headers.owner, payload: { name: 'Nightly sync' } });
    expect(created.statusCode, created.body).toBe(200);
    const { apiKey, key } = created.json() as { apiKey: { id: string; lastUsedDate?: string }; key: string };
    expect(apiKey.lastUsedDate).toBeUndefined();
    expect(await lastUsed(apiKey.id)).toBeUndefined();

    const withKey = { authorization: key, 'wix-site-id': s.site.siteId };
    const use = async () => expect((await t.app.inject({ method: 'GET', url: '/bodega/v1/me', headers: withKey })).statusCode).toBe(200);
    const first = new Date(clock).toISOString();
    await use();
    expect(await lastUsed(apiKey.id)).toBe(first);

    // Within the hour: more uses change nothing, in this process or in another server on the same database.
    clock += 10 * MINUTE;
    await use();
    await use();
    const otherServer = new SitesService(t.db, now);
    await otherServer.checkApiKey(s.site.siteId, key);
    clock += 49 * MINUTE;
    await use();
    await otherServer.checkApiKey(s.site.siteId, key);
    await otherServer.settled();
    expect(await lastUsed(apiKey.id)).toBe(first);

    // An hour after the recorded use, the next use is recorded, once.
    clock = Date.parse(first) + KEY_USE_RESOLUTION_MS;
    const second = new Date(clock).toISOString();
    await use();
    clock += MINUTE;
    await otherServer.checkApiKey(s.site.siteId, key);
    await use();
    await otherServer.settled();
    expect(await lastUsed(apiKey.id)).toBe(second);
  });

  it("records only the key that was used, and never another site's key", async () => {
    const other = await backOfficeSite(t);
    const mine = await t.app.inject({ method: 'POST', url: '/bodega/v1/api-keys', headers: s.headers.apiKey, payload: { name: 'Unused' } });
    const unusedId = (mine.json() as { apiKey: { id: string } }).apiKey.id;
    const theirs = await t.app.inject({ method: 'POST', url: '/bodega/v1/api-keys', headers: other.headers.owner, payload: { name: 'Theirs' } });
    const { key } = theirs.json() as { key: string };
    clock += 3 * KEY_USE_RESOLUTION_MS;
    expect((await t.app.inject({ method: 'GET', url: '/bodega/v1/me', headers: { authorization: key, 'wix-site-id': other.site.siteId } })).statusCode).toBe(200);
    // The same key sent for this site is refused and records nothing here.
    expect((await t.app.inject({ method: 'GET', url: '/bodega/v1/me', headers: { authorization: key, 'wix-site-id': s.site.siteId } })).statusCode).toBe(401);
    expect(await lastUsed(unusedId)).toBeUndefined();
  });
});

/** Makes the database refuse to record this key's use (a real failed write, not a stand-in); undo with the returned function. */
async function refuseKeyUse(keyId: string): Promise<() => Promise<void>> {
  if (!/^[\w-]+$/.test(keyId)) throw new Error(`unexpected key id ${keyId}`);
  const name = `bodega_test_refuse_key_use_${keyId.replace(/-/g, '_')}`;
  await t.db.query(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'last use refused by the test'; END $$`);
  await withTriggersAllowed(`CREATE TRIGGER ${name} BEFORE UPDATE OF last_used_at ON api_keys FOR EACH ROW WHEN (NEW.key_id = '${keyId}') EXECUTE FUNCTION ${name}()`);
  return async () => {
    await withTriggersAllowed(`DROP TRIGGER ${name} ON api_keys`);
    await t.db.query(`DROP FUNCTION ${name}()`);
  };
}

/** Citus refuses to create or drop a trigger on a distributed table unless told it is safe (this one reads nothing). */
async function withTriggersAllowed(sql: string): Promise<void> {
  await t.db.transaction(async (tx) => {
    if (process.env.BODEGA_CITUS === '1') await tx.query('SET LOCAL citus.enable_unsafe_triggers = on');
    await tx.query(sql);
  });
}

describe('when the last use cannot be written', () => {
  it('still answers the request, reports the failure, and records the use on the next request', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/bodega/v1/api-keys', headers: s.headers.apiKey, payload: { name: 'Flaky bookkeeping' } });
    const { apiKey, key } = created.json() as { apiKey: { id: string }; key: string };
    const withKey = { authorization: key, 'wix-site-id': s.site.siteId };
    clock += 5 * KEY_USE_RESOLUTION_MS;
    const allow = await refuseKeyUse(apiKey.id);
    try {
      const res = await t.app.inject({ method: 'GET', url: '/bodega/v1/me', headers: withKey });
      expect(res.statusCode, res.body).toBe(200);
      const reported: unknown[] = [];
      const server = new SitesService(t.db, now);
      server.reportErrorsTo((error) => reported.push(error));
      await expect(server.checkApiKey(s.site.siteId, key)).resolves.toMatchObject({ keyId: apiKey.id });
      await server.settled();
      expect(reported.map((e) => (e instanceof Error ? e.message : String(e)))).toEqual([expect.stringContaining('last use refused by the test')]);
      expect(await lastUsed(apiKey.id)).toBeUndefined();
    } finally {
      await allow();
    }
    // The failed write is not taken as done: the next use, in the same hour, records it.
    clock += MINUTE;
    const recorded = new Date(clock).toISOString();
    expect((await t.app.inject({ method: 'GET', url: '/bodega/v1/me', headers: withKey })).statusCode).toBe(200);
    expect(await lastUsed(apiKey.id)).toBe(recorded);
  });
});
