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
    expect(await lastUsed(apiKey.id)).toBe(first);

    // An hour after the recorded use, the next use is recorded, once.
    clock = Date.parse(first) + KEY_USE_RESOLUTION_MS;
    const second = new Date(clock).toISOString();
    await use();
    clock += MINUTE;
    await otherServer.checkApiKey(s.site.siteId, key);
    await use();
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
