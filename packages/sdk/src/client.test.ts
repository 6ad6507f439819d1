/// <reference types="node" />
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiKeyStrategy } from './auth/api-key.js';
import { createClient } from './client.js';
import { BodegaError } from './core/errors.js';
import { createTransport, GET_FALLBACK_THRESHOLD } from './core/transport.js';
import { checkout } from './modules/checkout.js';
import { currentCart } from './modules/current-cart.js';
import { members } from './modules/members.js';
import { products } from './modules/products.js';
import { decodeR, startReceiver, type Receiver } from './test-support/receiver.js';

let receiver: Receiver;
beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(() => receiver.close());

const client = (headers?: Record<string, string>) =>
  createClient({
    modules: { checkout, currentCart, members, products },
    auth: ApiKeyStrategy({ apiKey: 'KEY', siteId: 'site-1' }),
    baseUrl: `${receiver.url}/`,
    headers,
  });

async function rejection(promise: Promise<unknown>): Promise<BodegaError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof BodegaError)) throw new Error(`expected a BodegaError, got ${String(error)}`);
  return error;
}

describe('createClient', () => {
  it('binds each module to the client and sends API-key headers', async () => {
    receiver.reply(() => ({ body: { checkout: { id: 'co-1' } } }));
    const result = await client({ 'x-extra': '1' }).checkout.getCheckout('co-1');
    expect(result).toEqual({ _id: 'co-1' });
    const [request] = receiver.requests;
    expect(request.headers.authorization).toBe('KEY');
    expect(request.headers['wix-site-id']).toBe('site-1');
    expect(request.headers['x-extra']).toBe('1');
  });

  it('creates nothing at import: a module is a plain function of the transport', () => {
    expect(typeof currentCart).toBe('function');
    expect(Object.keys(client())).toEqual(
      expect.arrayContaining(['checkout', 'currentCart', 'members', 'products', 'auth', 'graphql']),
    );
  });
});

describe('client.use', () => {
  it('binds a module on first use, to the same client, and hands back the same object after', async () => {
    const bare = createClient({ auth: ApiKeyStrategy({ apiKey: 'KEY', siteId: 'site-1' }), baseUrl: receiver.url, headers: { 'x-extra': '2' } });
    expect(Object.keys(bare)).not.toContain('checkout');
    const bound = bare.use(checkout);
    expect(bare.use(checkout)).toBe(bound);
    expect(bare.use(members)).not.toBe(bound);
    receiver.reply(() => ({ body: { checkout: { id: 'co-2' } } }));
    expect(await bound.getCheckout('co-2')).toEqual({ _id: 'co-2' });
    const [request] = receiver.requests;
    expect(request.headers.authorization).toBe('KEY');
    expect(request.headers['x-extra']).toBe('2');
  });

  it('works beside modules bound up front', async () => {
    const both = client();
    receiver.reply(() => ({ body: { checkout: { id: 'co-3' } } }));
    expect(await both.use(checkout).getCheckout('co-3')).toEqual(await both.checkout.getCheckout('co-3'));
    expect(receiver.requests).toHaveLength(2);
  });
});

describe('transport', () => {
  it('puts a GET payload in the query string, path params included, with no body or content type', async () => {
    receiver.reply(() => ({ body: { checkout: {} } }));
    await client().checkout.getCheckout('co 1');
    const [request] = receiver.requests;
    expect(request.method).toBe('GET');
    expect(request.url).toBe('/ecom/v1/checkouts/co%201?id=co%201');
    expect(request.rawBody).toBe('');
    expect(request.headers['content-type']).toBeUndefined();
  });

  it('puts a DELETE payload in the query string', async () => {
    await client().members.deleteMyMember({ contentAssigneeId: 'm-2' });
    expect(receiver.requests[0].method).toBe('DELETE');
    expect(receiver.requests[0].url).toBe('/_api/members/v1/members/my?contentAssigneeId=m-2');
  });

  it('sends POST and PATCH payloads as JSON bodies', async () => {
    receiver.reply(() => ({ body: { cart: {} } }));
    await client().currentCart.updateCurrentCart({ couponCode: 'SAVE' });
    const [request] = receiver.requests;
    expect(request.method).toBe('PATCH');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.body).toEqual({ couponCode: 'SAVE' });
  });

  it('keeps a GET with a POST form at 4000 characters of query string and POSTs one of 4001', async () => {
    const transport = createTransport({ baseUrl: receiver.url });
    const id = 'x'.repeat(GET_FALLBACK_THRESHOLD - 'id='.length);
    await transport.send({ method: 'GET', path: '/v2/collections/query', payload: { id }, fallback: true });
    await transport.send({ method: 'GET', path: '/v2/collections/query', payload: { id: `${id}y` }, fallback: true });
    const [atLimit, overLimit] = receiver.requests;
    expect(atLimit.method).toBe('GET');
    expect(atLimit.url.split('?')[1]).toHaveLength(GET_FALLBACK_THRESHOLD);
    expect(overLimit.method).toBe('POST');
    expect(overLimit.url).toBe('/v2/collections/query');
    expect(overLimit.body).toEqual({ id: `${id}y` });
    expect(overLimit.headers['content-type']).toBe('application/json');
  });

  it('keeps a long GET without a POST form a GET (a POST there is another call: GET lists, POST creates)', async () => {
    receiver.reply(() => ({ body: { members: [], metadata: { total: 0 } } }));
    const sorting = Array.from({ length: 80 }, (_, i) => ({ fieldName: `profile.field${i}.${'x'.repeat(30)}`, order: 'ASC' as const }));
    await client().members.listMembers({ sorting });
    receiver.reply(() => ({ body: { checkout: {} } }));
    await client().checkout.getCheckout('x'.repeat(GET_FALLBACK_THRESHOLD));
    const [list, get] = receiver.requests;
    expect([list.method, list.path]).toEqual(['GET', '/_api/members/v1/members']);
    expect(list.url.length).toBeGreaterThan(GET_FALLBACK_THRESHOLD);
    expect(decodeR(list)).toEqual({ sorting });
    expect(get.method).toBe('GET');
    expect(get.rawBody).toBe('');
  });

  it('falls back from a long .r query to POST with the JSON body', async () => {
    receiver.reply(() => ({ body: { products: [], metadata: { total: 0 } } }));
    await client().products.queryProducts().eq('name', 'short').find();
    await client().products.queryProducts().eq('name', 'x'.repeat(3100)).find();
    const [small, large] = receiver.requests;
    expect(small.method).toBe('GET');
    expect(decodeR(small)).toEqual({
      query: { filter: { name: 'short' }, sort: [], paging: { limit: 50, offset: 0 } },
    });
    expect(large.method).toBe('POST');
    expect(large.path).toBe('/_api/catalog-reader-server/v1/products/query-platformized');
    expect(large.body).toMatchObject({ query: { filter: { name: 'x'.repeat(3100) } } });
  });

  it('treats any status but 200 as an error, 201 included', async () => {
    receiver.reply(() => ({ status: 201, body: { cart: {} } }));
    const error = await rejection(client().currentCart.getCurrentCart());
    expect(error.status).toBe(201);
  });

  it('fails a 200 answer that is not JSON', async () => {
    receiver.reply(() => ({ rawBody: '' }));
    const error = await rejection(client().currentCart.getCurrentCart());
    expect(error.message).toMatch(/^System error occurred/);
    expect(error.code).toBe('UNKNOWN');
  });

  it('carries the server message, details, status and request id of an error', async () => {
    receiver.reply(() => ({
      status: 404,
      headers: { 'X-Wix-Request-Id': 'rid-7' },
      body: {
        message: 'Cart not found',
        details: { applicationError: { code: 'OWNED_CART_NOT_FOUND', description: 'Cart not found', data: {} } },
      },
    }));
    const error = await rejection(client().currentCart.getCurrentCart());
    expect(error.message).toBe('Cart not found');
    expect(error.status).toBe(404);
    expect(error.requestId).toBe('rid-7');
    expect(error.code).toBe('OWNED_CART_NOT_FOUND');
    expect(error.details.applicationError).toEqual({
      code: 'OWNED_CART_NOT_FOUND',
      description: 'Cart not found',
      data: {},
    });
  });

  it('synthesizes an application error from the status text when the body is not JSON', async () => {
    receiver.reply(() => ({ status: 500, rawBody: 'oops', headers: { 'x-wix-request-id': 'rid-8' } }));
    const error = await rejection(client().currentCart.getCurrentCart());
    expect(error.message).toBe('Internal Server Error');
    expect(error.details.applicationError).toEqual({
      code: 500,
      description: 'Internal Server Error',
      data: { requestId: 'rid-8', details: null },
    });
  });

  it('reports a network failure as a system error', async () => {
    const dead = createClient({ modules: { currentCart }, baseUrl: 'http://127.0.0.1:1' });
    const error = await rejection(dead.currentCart.getCurrentCart());
    expect(error.code).toBe('UNKNOWN');
    expect(error.status).toBeUndefined();
  });

  it('echoes X-Wix-Consistent from an answer on later requests', async () => {
    receiver.reply(() => ({ body: { cart: {} }, headers: { 'X-Wix-Consistent': 'v42' } }));
    const c = client();
    await c.currentCart.getCurrentCart();
    await c.currentCart.getCurrentCart();
    expect(receiver.requests[0].headers['x-wix-consistent']).toBeUndefined();
    expect(receiver.requests[1].headers['x-wix-consistent']).toBe('v42');
  });

  it('adds headers set later with setHeaders', async () => {
    receiver.reply(() => ({ body: { cart: {} } }));
    const c = client();
    c.setHeaders({ 'accept-language': 'de' });
    await c.currentCart.getCurrentCart();
    expect(receiver.requests[0].headers['accept-language']).toBe('de');
  });

  it('fetchWithAuth adds the auth headers to any URL', async () => {
    const response = await client().fetchWithAuth(`${receiver.url}/anything`);
    expect(response.status).toBe(200);
    expect(receiver.requests[0].headers.authorization).toBe('KEY');
  });
});

describe('graphql', () => {
  it('posts {query, variables} to /graphql/alpha and returns {data, errors}', async () => {
    receiver.reply(() => ({ body: { data: { cart: { id: 'c' } }, errors: [{ message: 'partial' }] } }));
    const result = await client().graphql('query Q($a: Int) { cart }', { a: 1 });
    expect(result).toEqual({ data: { cart: { id: 'c' } }, errors: [{ message: 'partial' }] });
    expect(receiver.requests[0].method).toBe('POST');
    expect(receiver.requests[0].path).toBe('/graphql/alpha');
    expect(receiver.requests[0].body).toEqual({ query: 'query Q($a: Int) { cart }', variables: { a: 1 } });
  });

  it('uses the given apiVersion', async () => {
    receiver.reply(() => ({ body: { data: null } }));
    await client().graphql('{ x }', undefined, { apiVersion: 'v1' });
    expect(receiver.requests[0].path).toBe('/graphql/v1');
  });

  it('throws the error shape on a non-200 answer', async () => {
    receiver.reply(() => ({
      status: 400,
      headers: { 'x-wix-request-id': 'g-1' },
      body: { message: 'bad query', details: { applicationError: { code: 'GRAPHQL', description: 'bad query' } } },
    }));
    const error = await rejection(client().graphql('{'));
    expect(error).toMatchObject({ status: 400, requestId: 'g-1', message: 'bad query', code: 'GRAPHQL' });
  });
});
