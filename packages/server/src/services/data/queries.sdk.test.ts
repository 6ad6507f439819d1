import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { apiKeyClient, serveForSdk, type SdkServer } from '../../test/data-sdk.js';

let t: TestApp;
let site: TestSite;
let server: SdkServer;
let admin: ReturnType<typeof apiKeyClient>;

const CATEGORIES = ['fruit', 'veg', 'bread'];
const day = (n: number) => new Date(Date.UTC(2024, 0, 1 + n));

/** p00…p29: price = i, category cycles, tags, a date per day, every fifth without a note. */
const PRODUCTS = Array.from({ length: 30 }, (_, i) => ({
  _id: `p${String(i).padStart(2, '0')}`,
  title: `Product ${i} ${i % 2 === 0 ? 'even' : 'odd'}`,
  price: i,
  category: CATEGORIES[i % 3],
  tags: i % 2 === 0 ? ['even', `t${i % 4}`] : ['odd'],
  when: day(i),
  ...(i % 5 === 0 ? {} : { note: `note ${i}` }),
}));

beforeAll(async () => {
  t = await testApp();
  site = await t.createSite();
  server = await serveForSdk(t.app);
  admin = apiKeyClient(site);
  await admin.collections.createDataCollection({ _id: 'Products', permissions: { read: 'ANYONE', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' } });
  const result = await admin.items.bulkInsert('Products', PRODUCTS);
  expect(result.inserted).toBe(30);
});

afterAll(async () => {
  server.restore();
  await t.close();
});

const ids = (items: readonly { _id?: unknown }[]) => items.map((item) => item._id);
const idsWhere = (predicate: (p: (typeof PRODUCTS)[number], i: number) => boolean) => PRODUCTS.filter(predicate).map((p) => p._id);

async function post(url: string, payload: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url, headers: { authorization: site.apiKey, 'wix-site-id': site.siteId }, payload });
}

describe('query filters through the SDK builder', () => {
  const q = () => admin.items.query('Products').limit(100);

  it.each<[string, () => ReturnType<typeof q>, string[]]>([
    ['eq', () => q().eq('category', 'veg'), idsWhere((p) => p.category === 'veg')],
    ['ne', () => q().ne('category', 'veg'), idsWhere((p) => p.category !== 'veg')],
    ['gt', () => q().gt('price', 25), idsWhere((p) => p.price > 25)],
    ['ge', () => q().ge('price', 25), idsWhere((p) => p.price >= 25)],
    ['lt', () => q().lt('price', 3), idsWhere((p) => p.price < 3)],
    ['le', () => q().le('price', 3), idsWhere((p) => p.price <= 3)],
    ['between', () => q().between('price', 10, 13), idsWhere((p) => p.price >= 10 && p.price < 13)],
    ['a date range', () => q().ge('when', day(28)), idsWhere((p) => p.when >= day(28))],
    ['date equality', () => q().eq('when', day(7)), ['p07']],
    ['hasSome on an array', () => q().hasSome('tags', ['t1', 't3']), idsWhere((p) => p.tags.includes('t1') || p.tags.includes('t3'))],
    ['hasSome on a scalar (in)', () => q().hasSome('category', ['fruit', 'bread']), idsWhere((p) => p.category !== 'veg')],
    ['hasAll', () => q().hasAll('tags', ['even', 't2']), idsWhere((p) => p.tags.includes('even') && p.tags.includes('t2'))],
    ['contains, any case', () => q().contains('title', 'ODD'), idsWhere((_, i) => i % 2 === 1)],
    ['startsWith', () => q().startsWith('title', 'Product 2'), idsWhere((_, i) => String(i).startsWith('2'))],
    ['endsWith', () => q().endsWith('title', '9 odd'), idsWhere((_, i) => i % 10 === 9)],
    ['isEmpty', () => q().isEmpty('note'), idsWhere((_, i) => i % 5 === 0)],
    ['isNotEmpty', () => q().isNotEmpty('note'), idsWhere((_, i) => i % 5 !== 0)],
    ['or', () => q().eq('price', 1).or(q().eq('price', 2)), ['p01', 'p02']],
    ['not first', () => q().not(q().lt('price', 28)), ['p28', 'p29']],
    ['and of several', () => q().eq('category', 'fruit').gt('price', 20).lt('price', 28), idsWhere((p) => p.category === 'fruit' && p.price > 20 && p.price < 28)],
  ])('%s', async (_name, build, expected) => {
    const result = await build().find();
    expect(ids(result.items).sort()).toEqual([...expected].sort());
  });

  it('sorts, projects, skips and limits', async () => {
    const result = await admin.items.query('Products').eq('category', 'fruit').descending('price').fields('title', 'price').skip(1).limit(3).find();
    expect(result.items).toEqual([
      { _id: 'p24', title: 'Product 24 even', price: 24 },
      { _id: 'p21', title: 'Product 21 odd', price: 21 },
      { _id: 'p18', title: 'Product 18 even', price: 18 },
    ]);
  });

  it('pages forward with cursors and reports the total when asked', async () => {
    const first = await admin.items.query('Products').ascending('price').limit(12).find({ returnTotalCount: true });
    expect(first.totalCount).toBe(30);
    expect(first.hasNext()).toBe(true);
    const second = await first.next();
    const third = await second.next();
    expect(third.hasNext()).toBe(false);
    expect([...ids(first.items), ...ids(second.items), ...ids(third.items)]).toEqual(ids(PRODUCTS));
    const back = await third.prev();
    expect(ids(back.items)).toEqual(ids(second.items));
  });

  it('answers the default page of 50 at most', async () => {
    const result = await admin.items.query('Products').find();
    expect(result.items).toHaveLength(30);
    expect(result.items[0].when).toBeInstanceOf(Date);
  });

  it('counts with and without a filter', async () => {
    expect(await admin.items.query('Products').count()).toBe(30);
    expect(await admin.items.query('Products').eq('category', 'bread').count()).toBe(10);
  });

  it('lists distinct values in order, with paging', async () => {
    const values = await admin.items.query('Products').ascending('category').distinct('category');
    expect(values.items).toEqual(['bread', 'fruit', 'veg']);
    const descending = await admin.items.query('Products').descending('category').limit(2).distinct('category', { returnTotalCount: true });
    expect(descending.items).toEqual(['veg', 'fruit']);
    expect(descending.totalCount).toBe(3);
    expect((await descending.next()).items).toEqual(['bread']);
    const direct = await admin.items.distinct('Products', 'category', { paging: { limit: 2 }, returnTotalCount: true });
    expect(direct.values).toEqual(['bread', 'fruit']);
    expect(direct.pagingMetadata).toMatchObject({ total: 3, hasNext: true });
  });

  it('aggregates by group with a having filter and sort', async () => {
    const result = await admin.items
      .aggregate('Products')
      .filter(admin.items.filter().lt('price', 9))
      .group('category')
      .sum('price', 'total')
      .avg('price', 'mean')
      .min('price', 'least')
      .max('price', 'most')
      .count()
      .having(admin.items.filter().gt('total', 9))
      .descending('total')
      .run();
    expect(result.items).toEqual([
      { _id: 'bread', category: 'bread', total: 15, mean: 5, least: 2, most: 8, count: 3 },
      { _id: 'veg', category: 'veg', total: 12, mean: 4, least: 1, most: 7, count: 3 },
    ]);
  });

  it('aggregates everything into one group', async () => {
    const result = await admin.items.aggregate('Products').sum('price', 'total').count().run();
    expect(result.items).toEqual([expect.objectContaining({ total: 435, count: 30 })]);
  });

  it('pages aggregated groups and search results with the SDK\'s next()', async () => {
    const groups = await admin.items.aggregate('Products').group('category').count().ascending('category').limit(2).run();
    expect(groups.items.map((group: { _id?: unknown }) => group._id)).toEqual(['bread', 'fruit']);
    const rest = await groups.next();
    expect(rest.items.map((group: { _id?: unknown }) => group._id)).toEqual(['veg']);
    expect(rest.hasNext()).toBe(false);
    const found = await admin.items.search('Products').expression('odd').ascending('price').limit(10).run();
    const more = await found.next();
    expect([...found.items, ...more.items].map((item) => item.price)).toEqual(Array.from({ length: 15 }, (_, i) => 2 * i + 1));
  });

  it('searches the text of items', async () => {
    const even = await admin.items.search('Products').expression('even').run();
    expect(even.items).toHaveLength(15);
    const both = await admin.items.search('Products').expression('product 7').andMode().run();
    expect(ids(both.items)).toEqual(['p07']);
    const fuzzy = await admin.items.search('Products').expression('prod').fuzzy().eq('category', 'veg').run();
    expect(fuzzy.items).toHaveLength(10);
  });
});

describe('query errors answered with WDE codes and descriptions', () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['a regular-expression filter', { query: { filter: { title: { $regex: '^P' } } } }, 'WDE0070'],
    ['skip with cursor paging', { query: { cursorPaging: { limit: 2, cursor: 'abc' }, paging: { offset: 3 } } }, 'WDE0080'],
    ['a limit over 1000', { query: { paging: { limit: 1001 } } }, 'WDE0036'],
    ['a negative skip', { query: { paging: { offset: -1 } } }, 'WDE0034'],
    ['a forged cursor', { query: { cursorPaging: { cursor: 'eyJ2IjoxfQ' } } }, 'WDE0902'],
    ['an injection in a field name', { query: { filter: { "a') OR 1=1 --": 1 } } }, 'WDE0048'],
  ])('refuses %s', async (_name, body, code) => {
    const res = await post('/wix-data/v2/items/query', { dataCollectionId: 'Products', ...body });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.applicationError).toEqual({ code, description: expect.stringMatching(/\w+ \w+/), data: {} });
  });

  it('shows the description as the SDK error message', async () => {
    await expect(admin.items.query('Products', { filter: { title: { $regex: 'x' } } })).rejects.toThrow('$regex keyword is not allowed.');
  });
});
