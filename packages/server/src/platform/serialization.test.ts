import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { firstDifference, inDeclaredOrder, registerSerialization, undescribedRoutes } from './serialization.js';

const Answer = Type.Object({ id: Type.String(), count: Type.Integer() });
// An optional property between required ones (fast-json-stringify alone writes required ones first).
const Ordered = Type.Object({ id: Type.String(), url: Type.Optional(Type.String()), count: Type.Integer(), nested: Type.Object({ a: Type.Optional(Type.Integer()), b: Type.Integer() }) });

function appWith(check: boolean): FastifyInstance {
  const app = Fastify();
  registerSerialization(app, check);
  app.get('/exact', { schema: { response: { 200: Answer } } }, async () => ({ id: 'a', count: 2 }));
  app.get('/extra', { schema: { response: { 200: Answer } } }, async () => ({ id: 'a', count: 2, note: 'dropped by the schema' }));
  app.get('/coerced', { schema: { response: { 200: Answer } } }, async () => ({ id: 'a', count: '2' }));
  app.get('/ordered', { schema: { response: { 200: Ordered } } }, async () => ({ id: 'a', url: '/p', count: 2, nested: { a: 1, b: 2 } }));
  return app;
}

describe('answers written through response schemas', () => {
  const checked = appWith(true);
  const unchecked = appWith(false);
  beforeAll(async () => {
    await checked.ready();
    await unchecked.ready();
  });
  afterAll(async () => {
    await checked.close();
    await unchecked.close();
  });

  it('writes an answer that fits its schema as JSON.stringify would', async () => {
    const res = await checked.inject({ url: '/exact' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(JSON.stringify({ id: 'a', count: 2 }));
  });

  it("keeps the schema's order of properties, an optional one between required ones included", async () => {
    const res = await unchecked.inject({ url: '/ordered' });
    expect(res.body).toBe(JSON.stringify({ id: 'a', url: '/p', count: 2, nested: { a: 1, b: 2 } }));
  });

  it('keeps required only the properties before the first optional one (the rest keep their place)', () => {
    const required = (schema: unknown) => (inDeclaredOrder(schema) as { required?: string[] }).required;
    expect(required(Type.Object({ a: Type.String(), c: Type.String(), b: Type.Optional(Type.String()) }))).toEqual(['a', 'c']);
    expect(required(Type.Object({ a: Type.String(), b: Type.Optional(Type.String()), c: Type.String() }))).toEqual(['a']);
    expect(required(Type.Union([Type.Object({ a: Type.Optional(Type.String()), b: Type.String() })]))).toBeUndefined();
    expect((inDeclaredOrder(Type.Union([Type.Object({ a: Type.Optional(Type.String()), b: Type.String() })])) as { anyOf: { required: string[] }[] }).anyOf[0].required).toEqual(['b']);
  });

  it('fails, when checking, an answer the schema would change, and names where', async () => {
    for (const url of ['/extra', '/coerced']) {
      const res = await checked.inject({ url });
      expect(res.statusCode, url).toBe(500);
    }
    // Unchecked (production), fast-json-stringify silently drops and coerces: why tests check.
    expect((await unchecked.inject({ url: '/extra' })).json()).toEqual({ id: 'a', count: 2 });
    expect((await unchecked.inject({ url: '/coerced' })).json()).toEqual({ id: 'a', count: 2 });
  });

  it('names the first path that differs', () => {
    expect(firstDifference({ a: { b: [1, 2] } }, { a: { b: [1, 3] } }, '$')).toBe('$.a.b.1 (written 2, returned 3)');
    expect(firstDifference({ a: 1 }, { a: 1, note: 'x' }, '$')).toBe('$.note (written missing, returned "x")');
  });
});

describe('the inventory of routes without a response schema', () => {
  it('lists a route under a required path that answers without a schema (the counter-example), and no other', async () => {
    const app = Fastify();
    registerSerialization(app, true);
    app.get('/bodega/v1/described', { schema: { response: { 200: Answer } } }, async () => ({ id: 'a', count: 1 }));
    app.post('/bodega/v1/counter-example', async () => ({ id: 'a' }));
    app.get('/elsewhere/undescribed', async () => ({}));
    await app.ready();
    expect(undescribedRoutes(app.routeAnswers, [/^\/bodega\/v1\//])).toEqual(['POST /bodega/v1/counter-example']);
    expect(undescribedRoutes(app.routeAnswers, [/^\/elsewhere\//])).toEqual(['GET /elsewhere/undescribed']);
    await app.close();
  });
});
