/**
 * Issue 24, finding 5: a 2024 template's header reads its Menus item with @wix/data 1.0.168's
 * `queryDataItems({includeReferencedItems: ["pages"]})` and needs the multi-referenced pages in
 * the item. Every generation's spelling of reference inclusion is served: `includeReferencedItems`
 * (field names), `referencedItemOptions` ({fieldName, limit}) and the current `includeReferences`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, OAuthStrategy } from 'wix-sdk-2024';
import { items as items168 } from 'wix-data-1-0-168';
import { testApp, type TestApp, type TestSite } from '../test/harness.js';
import { apiKeyClient, serveForSdk, tokenClient, type SdkServer } from '../test/data-sdk.js';

let t: TestApp;
let site: TestSite;
let server: SdkServer;

beforeAll(async () => {
  t = await testApp();
  site = await t.createSite();
  server = await serveForSdk(t.app);
  const admin = apiKeyClient(site);
  const anyoneReads = { read: 'ANYONE', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' } as const;
  await admin.collections.createDataCollection({ _id: 'Pages', fields: [{ key: 'title', type: 'TEXT' }, { key: 'path', type: 'TEXT' }], permissions: anyoneReads });
  await admin.collections.createDataCollection({
    _id: 'Menus',
    fields: [
      { key: 'name', type: 'TEXT' },
      { key: 'pages', type: 'MULTI_REFERENCE', typeMetadata: { multiReference: { referencedCollectionId: 'Pages' } } },
    ],
    permissions: anyoneReads,
  });
  await admin.items.bulkInsert('Pages', [{ _id: 'home', title: 'Home', path: '/' }, { _id: 'about', title: 'About', path: '/about' }]);
  await admin.items.insert('Menus', { _id: 'header', name: 'Header' });
  await admin.items.insertReference('Menus', 'pages', 'header', ['home', 'about']);
});
afterAll(async () => {
  server.restore();
  await t.close();
});

const titles = (pages: unknown) => (pages as { title?: string }[]).map((p) => p.title);

describe('reference inclusion in every spelling', () => {
  it('fills the Menus item\'s pages for @wix/data 1.0.168 includeReferencedItems (a visitor of a 2024 app)', async () => {
    const app = createClient({ modules: { items: items168 }, auth: OAuthStrategy({ clientId: site.clientId }) });
    const result = await app.items.queryDataItems({ dataCollectionId: 'Menus', includeReferencedItems: ['pages'] }).eq('name', 'Header').find();
    expect(result.items.map((i) => i.data?.name)).toEqual(['Header']);
    expect(titles(result.items[0].data?.pages)).toEqual(['Home', 'About']);
    // Without it the field is left as it is stored (no referenced items).
    const plain = await app.items.queryDataItems({ dataCollectionId: 'Menus' }).find();
    expect(titles(plain.items[0].data?.pages ?? [])).not.toEqual(['Home', 'About']);
  });

  it('honours referencedItemOptions with its limit (1.0.168 and the REST reference)', async () => {
    const app = createClient({ modules: { items: items168 }, auth: OAuthStrategy({ clientId: site.clientId }) });
    const result = await app.items.queryDataItems({ dataCollectionId: 'Menus', referencedItemOptions: [{ fieldName: 'pages', limit: 1 }] }).find();
    expect(titles(result.items[0].data?.pages)).toEqual(['Home']);
  });

  it('serves the current @wix/data includeReferences and a GET with includeReferencedItems', async () => {
    const current = await tokenClient(site).items.query('Menus').include('pages').find();
    expect(titles(current.items[0].pages)).toEqual(['Home', 'About']);
    const token = await t.visitorToken(site);
    const got = await t.app.inject({ method: 'GET', url: '/wix-data/v2/items/header?dataCollectionId=Menus&includeReferencedItems=pages', headers: { authorization: token } });
    expect(got.statusCode).toBe(200);
    expect(titles(got.json().dataItem.data.pages)).toEqual(['Home', 'About']);
    const bad = await t.app.inject({ method: 'POST', url: '/wix-data/v2/items/query', headers: { authorization: token }, payload: { dataCollectionId: 'Menus', referencedItemOptions: [{ fieldName: '' }] } });
    expect(bad.statusCode).toBe(400);
  });
});
