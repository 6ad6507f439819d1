import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Type } from 'typebox';
import { testApp, type TestApp } from '../test/harness.js';
import { ApiError } from './errors.js';
import { BODY_LIMIT_BYTES } from '../app.js';

let t: TestApp;

beforeAll(async () => {
  t = await testApp({
    routes(app) {
      app.get('/v1/echo', async (req) => ({ query: req.query }));
      app.delete('/v1/echo', async (req) => ({ query: req.query }));
      app.post('/v1/typed', {
        schema: {
          body: Type.Object({
            name: Type.String({ minLength: 1, maxLength: 5 }),
            quantity: Type.Integer({ minimum: 1, maximum: 100 }),
            kind: Type.Optional(Type.Union([Type.Literal('A'), Type.Literal('B')])),
          }),
        },
      }, async () => ({}));
      app.post('/v1/void', async () => ({}));
      app.get('/v1/fail/application', async () => {
        throw new ApiError(409, 'SLUG_TAKEN', 'The slug is taken', { slug: 'x' });
      });
      app.post('/v1/fail/database-value', async (req) => {
        const { when } = req.body as { when: string };
        return t.db.query('SELECT $1::timestamptz AS at', [when]);
      });
      app.get('/v1/fail/crash', async () => {
        throw new Error('secret internal detail');
      });
    },
  });
});
afterAll(() => t.close());

function expectApplicationError(body: unknown, code: string) {
  expect(body).toEqual({
    message: expect.any(String),
    details: { applicationError: { code, description: expect.any(String), data: expect.any(Object) } },
  });
}

describe('wire rules', () => {
  it('answers a success with HTTP 200, a JSON body and a request id', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/void', payload: {} });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
    expect(res.headers['x-wix-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('gives every request its own request id', async () => {
    const a = await t.app.inject({ method: 'GET', url: '/healthz' });
    const b = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(a.headers['x-wix-request-id']).not.toBe(b.headers['x-wix-request-id']);
  });

  it('decodes the .r parameter on GET and DELETE', async () => {
    const payload = { paging: { limit: 10, offset: 0 }, fieldsets: ['FULL'], sorting: [{ fieldName: 'createdDate', order: 'DESC' }] };
    const r = Buffer.from(JSON.stringify(payload)).toString('base64url');
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: `/v1/echo?.r=${r}` });
      expect(res.statusCode).toBe(200);
      expect(res.json().query).toEqual(payload);
    }
  });

  it('decodes dotted and repeated keys', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/echo?id=m1&paging.limit=5&fieldsets=FULL&fieldsets=PUBLIC' });
    expect(res.json().query).toEqual({ id: 'm1', paging: { limit: '5' }, fieldsets: ['FULL', 'PUBLIC'] });
  });

  it('answers a malformed .r with a 400 in the wire shape', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/echo?.r=***' });
    expect(res.statusCode).toBe(400);
    expectApplicationError(res.json(), 'INVALID_QUERY');
  });

  it('answers malformed JSON with a 400 in the wire shape', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/void', headers: { 'content-type': 'application/json' }, payload: '{"a":' });
    expect(res.statusCode).toBe(400);
    expectApplicationError(res.json(), 'INVALID_JSON');
    expect(res.headers['x-wix-request-id']).toBeTruthy();
  });

  it('takes an empty JSON body as {}', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/void', headers: { 'content-type': 'application/json' }, payload: '' });
    expect(res.statusCode).toBe(200);
  });

  it('refuses a prototype-poisoning body', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/void', headers: { 'content-type': 'application/json' }, payload: '{"__proto__":{"x":1}}' });
    expect(res.statusCode).toBe(400);
  });

  it('answers wrong types with field violations naming each field and rule', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/typed', payload: { name: 'too long name', quantity: 0, kind: 'C' } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.message).toEqual(expect.any(String));
    const violations = body.details.validationError.fieldViolations;
    expect(violations).toEqual(expect.arrayContaining([
      expect.objectContaining({ field: 'name', violatedRule: 'MAX_LENGTH', data: { threshold: 5 } }),
      expect.objectContaining({ field: 'quantity', violatedRule: 'MIN', data: { threshold: 1 } }),
    ]));
    for (const v of violations) {
      expect(v).toEqual({ field: expect.any(String), description: expect.any(String), violatedRule: expect.any(String), data: expect.any(Object) });
    }
  });

  it('names a missing required field', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/typed', payload: { name: 'a' } });
    expect(res.json().details.validationError.fieldViolations).toEqual([
      expect.objectContaining({ field: 'quantity', violatedRule: 'REQUIRED_FIELD' }),
    ]);
  });

  it('answers a body over the size limit with 413 in the wire shape', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/void', headers: { 'content-type': 'application/json' }, payload: `{"a":"${'x'.repeat(BODY_LIMIT_BYTES)}"}` });
    expect(res.statusCode).toBe(413);
    expectApplicationError(res.json(), 'PAYLOAD_TOO_LARGE');
  });

  it('answers an unsupported content type with 415 in the wire shape', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/void', headers: { 'content-type': 'text/xml' }, payload: '<a/>' });
    expect(res.statusCode).toBe(415);
    expectApplicationError(res.json(), 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers an unknown route with 404 in the wire shape', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/nothing-here' });
    expect(res.statusCode).toBe(404);
    expectApplicationError(res.json(), 'NOT_FOUND');
    expect(res.headers['x-wix-request-id']).toBeTruthy();
  });

  it('writes application errors with their code, description and data', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/fail/application' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      message: 'The slug is taken',
      details: { applicationError: { code: 'SLUG_TAKEN', description: 'The slug is taken', data: { slug: 'x' } } },
    });
  });

  it('refuses a NUL character anywhere in a request, naming the field, before any route sees it', async () => {
    const inBody = await t.app.inject({ method: 'POST', url: '/oauth2/token', payload: { clientId: 'a\u0000b', grantType: 'anonymous' } });
    expect(inBody.statusCode).toBe(400);
    expect(inBody.json().details.validationError.fieldViolations[0]).toMatchObject({ field: 'clientId', violatedRule: 'FORMAT' });
    const nestedKey = await t.app.inject({ method: 'POST', url: '/v1/void', payload: { a: [{ 'b\u0000': 1 }] } });
    expect(nestedKey.json().details.validationError.fieldViolations[0].field).toBe('a[0].b\u0000');
    const inQuery = await t.app.inject({ method: 'GET', url: '/v1/echo?id=a%00b' });
    expect(inQuery.statusCode).toBe(400);
    expect(inQuery.json().details.validationError.fieldViolations[0].field).toBe('id');
  });

  it('answers a value the database refuses with a 400, not a 500', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/fail/database-value', payload: { when: 'not a date' } });
    expect(res.statusCode).toBe(400);
    expectApplicationError(res.json(), 'INVALID_VALUE');
  });

  it('hides the cause of an unexpected failure', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/fail/crash' });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('secret internal detail');
    expect(res.body).not.toContain('at ');
    expectApplicationError(res.json(), 'INTERNAL_ERROR');
  });

  it('answers CORS preflights for the headers the official SDK sends and exposes the request id', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/oauth2/token',
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,x-wix-bi-gateway,wix-site-id',
      },
    });
    expect(res.statusCode).toBeLessThan(300);
    expect(res.headers['access-control-allow-origin']).toBe('https://shop.example');
    expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain('x-wix-bi-gateway');
    const get = await t.app.inject({ method: 'GET', url: '/healthz', headers: { origin: 'https://shop.example' } });
    expect(String(get.headers['access-control-expose-headers']).toLowerCase()).toContain('x-wix-request-id');
  });

  it('reports health once the database answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });
});
