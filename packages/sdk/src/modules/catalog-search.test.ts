import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OAuthStrategy } from '../auth/oauth.js';
import { createClient } from '../client.js';
import { startReceiver, type Receiver } from '../test-support/receiver.js';
import { catalogSearch } from './catalog-search.js';

let receiver: Receiver;
beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(() => receiver.close());

const client = () => createClient({
  modules: { catalogSearch },
  auth: OAuthStrategy({ clientId: 'c', tokens: { accessToken: { value: 'T', expiresAt: Date.now() / 1000 + 3600 }, refreshToken: { value: 'R', role: 'visitor' } } }),
  baseUrl: receiver.url,
});

describe('catalogSearch', () => {
  it('posts the text, filters, sort and paging and reads hits, facets and did-you-mean', async () => {
    receiver.reply(() => ({
      body: {
        items: [{ product: { id: 'p1', name: 'Merino Crew Sweater' }, nameHighlight: [{ text: 'Merino', match: true }] }],
        metadata: { count: 1, offset: 0, limit: 24, total: 1 },
        facets: { collections: [{ id: 'c1', name: 'Apparel', count: 1 }], options: [], prices: [{ id: '0-25', from: '0.00', to: '25.00', count: 1 }], inStock: 1, onSale: 0, brands: [] },
        didYouMean: null,
      },
    }));
    const answer = await client().catalogSearch.search({ text: 'merino', filters: { options: { Colour: ['Oat'] }, inStock: true }, sort: 'PRICE_ASC', paging: { limit: 24 } });
    const [request] = receiver.requests;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/_api/bodega/v1/catalog/search');
    expect(request.body).toEqual({ text: 'merino', filters: { options: { Colour: ['Oat'] }, inStock: true }, sort: 'PRICE_ASC', paging: { limit: 24 } });
    expect(answer.items[0].product._id).toBe('p1');
    expect(answer.facets.collections[0]._id).toBe('c1');
    expect(answer.facets.prices[0]._id).toBe('0-25');
  });

  it('asks for suggestions with a GET of the text typed so far', async () => {
    receiver.reply(() => ({ body: { products: [], collections: [{ id: 'c1', slug: 'coffee', name: 'Coffee' }] } }));
    const found = await client().catalogSearch.suggest('cof fee&');
    expect(receiver.requests[0].method).toBe('GET');
    expect(receiver.requests[0].path).toBe('/_api/bodega/v1/catalog/suggest');
    expect(receiver.requests[0].query.get('text')).toBe('cof fee&');
    expect(found.collections).toEqual([{ _id: 'c1', slug: 'coffee', name: 'Coffee' }]);
  });
});
