import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { apiKey, newMemberId } from '../../test/commerce.js';
import { apiKeyClient, sdkTokens, serveForSdk, tokenClient, type SdkServer } from '../../test/data-sdk.js';

let t: TestApp;
let site: TestSite;
let server: SdkServer;
let admin: ReturnType<typeof apiKeyClient>;
let visitor: ReturnType<typeof tokenClient>;
let alice: ReturnType<typeof tokenClient>;
let bob: ReturnType<typeof tokenClient>;
let owner: ReturnType<typeof tokenClient>;
let aliceId: string;

/** A signed-in client; member tokens come from the token service as the sign-in flow would issue them. */
async function member(subjectId: string, memberRole?: 'OWNER') {
  const answer = await t.app.services.oauth.startSession(t.app.services.sites.contextFor(site.siteId), { clientId: site.clientId, role: 'member', subjectId, memberRole });
  return tokenClient(site, sdkTokens(answer, 'member'));
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    const { details, code } = error as { details?: { applicationError?: { code?: unknown } }; code?: unknown };
    return String(details?.applicationError?.code ?? code ?? (error as Error).message);
  }
  return 'no error';
}

beforeAll(async () => {
  t = await testApp();
  site = await t.createSite();
  server = await serveForSdk(t.app);
  admin = apiKeyClient(site);
  visitor = tokenClient(site);
  aliceId = await newMemberId(t.app, site);
  alice = await member(aliceId);
  bob = await member(await newMemberId(t.app, site));
  const ownerId = await newMemberId(t.app, site);
  const promoted = await t.app.inject({ method: 'POST', url: `/members/v1/members/${ownerId}/role`, headers: apiKey(site), payload: { role: 'OWNER' } });
  expect(promoted.statusCode, promoted.body).toBe(200);
  owner = await member(ownerId, 'OWNER');
  await admin.collections.createDataCollection({ _id: 'Board', permissions: { read: 'ANYONE', insert: 'SITE_MEMBER', update: 'SITE_MEMBER_AUTHOR', remove: 'ADMIN' } });
  await admin.collections.createDataCollection({ _id: 'Diary', permissions: { read: 'SITE_MEMBER_AUTHOR', insert: 'SITE_MEMBER', update: 'SITE_MEMBER_AUTHOR', remove: 'SITE_MEMBER_AUTHOR' } });
  await admin.collections.createDataCollection({ _id: 'Club', permissions: { read: 'SITE_MEMBER', insert: 'ANYONE', update: 'ADMIN', remove: 'ADMIN' } });
});

afterAll(async () => {
  server.restore();
  await t.close();
});

describe('per-operation permissions by caller', () => {
  it('lets anyone read a public board but only members post, as its owners', async () => {
    expect(await codeOf(visitor.items.insert('Board', { text: 'anon' }))).toBe('WDE0027');
    const post = await alice.items.insert('Board', { _id: 'post', text: 'hi', _owner: 'someone-else' });
    expect(post._owner).toBe(aliceId);
    expect(await visitor.items.get('Board', 'post')).toMatchObject({ text: 'hi' });
  });

  it('lets authors update their own items only', async () => {
    await alice.items.insert('Board', { _id: 'mine', text: 'a' });
    expect((await alice.items.update('Board', { _id: 'mine', text: 'b' })).text).toBe('b');
    expect(await codeOf(bob.items.update('Board', { _id: 'mine', text: 'hijack' }))).toBe('WDE0027');
    expect(await codeOf(bob.items.patch('Board', 'mine').setField('text', 'hijack').run())).toBe('WDE0027');
    expect((await admin.items.get('Board', 'mine'))?.text).toBe('b');
  });

  it('keeps removal to admins: the API key and the back office', async () => {
    await alice.items.insert('Board', { _id: 'doomed' });
    expect(await codeOf(alice.items.remove('Board', 'doomed'))).toBe('WDE0027');
    expect(await owner.items.remove('Board', 'doomed')).toMatchObject({ _id: 'doomed' });
  });

  it('saves as insert or update, each under its own permission', async () => {
    await admin.collections.createDataCollection({ _id: 'Guestbook', permissions: { read: 'ANYONE', insert: 'SITE_MEMBER', update: 'ADMIN', remove: 'ADMIN' } });
    await admin.items.insert('Guestbook', { _id: 'saved' });
    expect(await codeOf(alice.items.save('Guestbook', { _id: 'saved', text: 'x' }))).toBe('WDE0027');
    expect((await alice.items.save('Guestbook', { _id: 'fresh', text: 'x' }))._owner).toBe(aliceId);
    const result = await alice.items.bulkSave('Guestbook', [{ _id: 'fresh2' }, { _id: 'saved' }]);
    expect(result).toMatchObject({ inserted: 1, updated: 0 });
    expect(result.errors.map((error) => error.code)).toEqual(['WDE0027']);
    expect(await codeOf(visitor.items.save('Guestbook', { _id: 'anon' }))).toBe('WDE0027');
    await alice.items.insert('Board', { _id: 'alices' });
    expect(await codeOf(bob.items.save('Board', { _id: 'alices', text: 'x' }))).toBe('WDE0027');
  });

  it('describes a refusal in words', async () => {
    await expect(visitor.items.insert('Board', { text: 'x' })).rejects.toThrow('The current user does not have permissions to insert on the Board collection.');
  });

  it('shows authors only their own items, through every read call and every page', async () => {
    await alice.items.bulkInsert('Diary', [{ _id: 'a1', mood: 'good', n: 1 }, { _id: 'a2', mood: 'bad', n: 2 }]);
    await bob.items.insert('Diary', { _id: 'b1', mood: 'good', n: 3 });
    const page = await alice.items.query('Diary').ascending('_id').limit(1).find({ returnTotalCount: true });
    expect(page.totalCount).toBe(2);
    const next = await page.next();
    expect([page.items[0]._id, next.items[0]._id]).toEqual(['a1', 'a2']);
    expect(next.hasNext()).toBe(false);
    expect(await alice.items.query('Diary').count()).toBe(2);
    expect((await alice.items.query('Diary').distinct('mood')).items).toEqual(['bad', 'good']);
    expect((await alice.items.aggregate('Diary').sum('n', 'total').run()).items[0]).toMatchObject({ total: 3 });
    expect((await alice.items.search('Diary').expression('good').run()).items.map((item) => item._id)).toEqual(['a1']);
    expect(await alice.items.get('Diary', 'b1')).toBeNull();
    expect(await admin.items.query('Diary').count()).toBe(3);
  });

  it('removes an author\'s own items and refuses the others, item by item', async () => {
    await alice.items.insert('Diary', { _id: 'a3' });
    const result = await alice.items.bulkRemove('Diary', ['a3', 'b1']);
    expect(result.removed).toBe(1);
    expect(result.errors.map((error) => error.code)).toEqual(['WDE0027']);
  });

  it('limits an author\'s remove-by-filter to their own items', async () => {
    await bob.items.insert('Diary', { _id: 'b2', mood: 'good' });
    const { jobId } = await alice.items.asyncRemoveByFilter('Diary', alice.items.filter().eq('mood', 'good'));
    const deadline = Date.now() + 20_000;
    let status = await alice.items.getAsyncJobStatus(jobId);
    while (status.status !== 'SUCCEEDED' && Date.now() < deadline) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      status = await alice.items.getAsyncJobStatus(jobId);
    }
    expect(status).toEqual({ status: 'SUCCEEDED', successCount: 1 });
    expect(await admin.items.get('Diary', 'b2')).not.toBeNull();
  });

  it('refuses a visitor reading a members-only collection, lets a member read it all', async () => {
    await visitor.items.insert('Club', { _id: 'c1' });
    expect(await codeOf(visitor.items.query('Club').find())).toBe('WDE0027');
    expect(await codeOf(visitor.items.get('Club', 'c1'))).toBe('WDE0027');
    expect((await bob.items.query('Club').find()).items.map((item) => item._id)).toEqual(['c1']);
  });

  it('keeps collection changes to the back office and API keys', async () => {
    expect(await codeOf(visitor.collections.createDataCollection({ _id: 'Nope' }))).toBe('PERMISSION_DENIED');
    expect(await codeOf(alice.collections.deleteDataCollection('Board'))).toBe('PERMISSION_DENIED');
    expect((await owner.collections.createDataCollection({ _id: 'ByOwner' }))?._id).toBe('ByOwner');
    expect((await visitor.collections.getDataCollection('Board'))?.permissions?.read).toBe('ANYONE');
  });
});
