import { isDeepStrictEqual } from 'node:util';
import type { FastifyInstance } from 'fastify';
import fastJsonStringify from 'fast-json-stringify';

/**
 * Answers of routes with a response schema are written by fast-json-stringify from that schema:
 * faster than JSON.stringify, and the schema is the wire's one description (OpenAPI, the SDK's
 * generated types). fast-json-stringify leaves out properties the schema does not name and
 * coerces values to the schema's types, so a schema that drifts from what a handler returns
 * would change the wire silently. With `check` on (every test run sets BODEGA_CHECK_RESPONSES=1)
 * each answer is also written by JSON.stringify and a difference fails the request, naming the
 * first path that differs.
 *
 * Serializers are compiled on a route's first answer, not at start (as the validators are).
 */
export function registerSerialization(app: FastifyInstance, check: boolean): void {
  const answers: RouteAnswer[] = [];
  app.decorate('routeAnswers', answers);
  app.addHook('onRoute', (route) => {
    const schema = route.schema as { response?: Record<string, unknown>; hide?: boolean } | undefined;
    const described = Object.keys(schema?.response ?? {}).some((code) => /^2/.test(code));
    const hidden = schema?.hide === true;
    for (const method of [route.method].flat()) if (method !== 'HEAD') answers.push({ method, url: route.url, described, hidden });
  });
  app.setSerializerCompiler(({ schema, method, url, httpStatus }) => {
    let compiled: ((payload: unknown) => string) | undefined;
    return (payload: unknown) => {
      compiled ??= fastJsonStringify(inDeclaredOrder(schema) as Parameters<typeof fastJsonStringify>[0]);
      const text = compiled(payload);
      if (check) checkAnswer(text, payload, `${method} ${url} ${httpStatus}`);
      return text;
    };
  });
}

/**
 * The schema as fast-json-stringify should see it to write properties in the schema's order:
 * it writes every `required` property before the optional ones, which would move an optional
 * property declared between two required ones (a product's `url` or `brand`, an item's `id`) to
 * the end, so the answer would differ byte for byte from what the handler built. So only the
 * required properties before an object's first optional one stay `required` (written first, in
 * order, on fast-json-stringify's quickest path); the rest follow in declared order, skipped when
 * absent (the TypeBox provider still checks statically that a handler returns every required
 * one). Unions and conditionals keep theirs: fast-json-stringify picks their branch by validating.
 */
export function inDeclaredOrder(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(inDeclaredOrder);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) out[key] = BRANCHING.has(key) ? value : inDeclaredOrder(value);
  const { properties, required } = schema as { properties?: unknown; required?: unknown };
  if (typeof properties === 'object' && properties !== null && Array.isArray(required)) {
    const keys = Object.keys(properties);
    const firstOptional = keys.findIndex((k) => !required.includes(k));
    if (firstOptional >= 0) out.required = required.filter((k) => !keys.includes(k as string) || keys.indexOf(k as string) < firstOptional);
  }
  return out;
}
const BRANCHING = new Set(['anyOf', 'oneOf', 'allOf', 'if', 'then', 'else', 'not', 'enum', 'const', 'default', 'examples']);

/** A route as added, and whether a 2xx answer of it has a response schema. */
export interface RouteAnswer {
  method: string;
  url: string;
  described: boolean;
  /** Left out of the OpenAPI document (`schema.hide`): not an API answer (the document itself). */
  hidden: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route and whether its answer is described by a response schema (the inventory test walks it). */
    routeAnswers: readonly RouteAnswer[];
  }
}

/**
 * The routes under any of `required` (path patterns) whose answer has no response schema, as
 * `METHOD url`: the check that keeps `/bodega/v1` (and every area converted since) described.
 */
export function undescribedRoutes(answers: readonly RouteAnswer[], required: readonly RegExp[]): string[] {
  return answers
    .filter((a) => !a.described && !a.hidden && required.some((re) => re.test(a.url)))
    .map((a) => `${a.method} ${a.url}`);
}

/** Turns the check on when the environment asks for it (the test runs do). */
export function checkResponsesFromEnv(env: NodeJS.ProcessEnv): boolean {
  return env.BODEGA_CHECK_RESPONSES === '1';
}

function checkAnswer(text: string, payload: unknown, route: string): void {
  const stringified = JSON.stringify(payload);
  if (text === stringified) return;
  // Key order may differ (the schema's order is written); the values may not.
  const written = JSON.parse(text) as unknown;
  const plain = JSON.parse(stringified) as unknown;
  if (isDeepStrictEqual(written, plain)) return;
  const where = firstDifference(written, plain, '$');
  throw new Error(`The response schema of ${route} changes the answer at ${where}`);
}

/** The first path where the schema-written answer and the plain one differ, with both values. */
export function firstDifference(written: unknown, plain: unknown, path: string): string {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
  if (isObject(written) && isObject(plain) && Array.isArray(written) === Array.isArray(plain)) {
    const keys = new Set([...Object.keys(written), ...Object.keys(plain)]);
    for (const key of keys) {
      if (!isDeepStrictEqual(written[key], plain[key])) return firstDifference(written[key], plain[key], `${path}.${key}`);
    }
  }
  const show = (v: unknown) => (v === undefined ? 'missing' : JSON.stringify(v).slice(0, 80));
  return `${path} (written ${show(written)}, returned ${show(plain)})`;
}
