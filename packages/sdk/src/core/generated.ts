/**
 * Calls of generated-style modules (commerce, members, catalog, identity, redirects, collections):
 * SDK names → wire names on the way out, wire → SDK on the way back, and errors rethrown with the
 * wire field paths mapped to the function's argument names (spec §8, wire-surface §1.7).
 */
import { BodegaError, type FieldViolation } from './errors.js';
import type { PlainObject } from './query-string.js';
import type { HttpMethod, Transport } from './transport.js';
import { fromWire, sdkFieldPath, toWire } from './wire-keys.js';

/**
 * Where each request field came from: wire path prefix → argument path (`{ id: '_id' }`,
 * `{ 'member.id': '_id' }`). `'*'` names the argument that holds every other top-level field
 * (usually `options`). Fields matching nothing keep their path.
 */
export type ArgumentMap = Record<string, string>;

export interface CallOptions {
  args?: ArgumentMap;
  /** Return only this key of the response body. */
  pick?: string;
  /** Nested GET payloads go as one `.r` parameter. */
  complex?: boolean;
  /** A long GET is sent as POST to the same path (see `WireRequest.fallback`). */
  fallback?: boolean;
}

export const enc = encodeURIComponent;

export function argumentPath(field: string, args: ArgumentMap): string {
  let prefix = '';
  for (const key of Object.keys(args)) {
    const matches = field === key || field.startsWith(`${key}.`) || field.startsWith(`${key}[`);
    if (key !== '*' && matches && key.length > prefix.length) prefix = key;
  }
  const rest = sdkFieldPath(prefix ? field.slice(prefix.length) : field);
  if (prefix) return args[prefix] + rest;
  return args['*'] ? `${args['*']}.${rest}` : rest;
}

/** Rethrows a server error with argument names in place of wire field paths. */
export function mapArgumentNames(error: unknown, args: ArgumentMap = {}): unknown {
  if (!(error instanceof BodegaError) || error.status === undefined) return error;
  const { details } = error;
  const violations = details.validationError?.fieldViolations;
  if (violations) {
    const mapped: FieldViolation[] = violations
      .map((violation) => ({ ...violation, field: argumentPath(violation.field, args) }))
      .sort((a, b) => (a.field < b.field ? -1 : a.field > b.field ? 1 : 0));
    const message = `INVALID_ARGUMENT: ${mapped.map((v) => `"${v.field}" ${v.description}`).join(', ')}`;
    return new BodegaError(message, {
      status: error.status,
      requestId: error.requestId,
      details: { ...details, validationError: { fieldViolations: mapped } },
      cause: error,
    });
  }
  const description = details.applicationError?.description;
  const message =
    description && error.message && description !== error.message
      ? `${error.message}: ${description}`
      : error.message || description || 'Unknown error';
  return new BodegaError(message, { status: error.status, requestId: error.requestId, details, cause: error });
}

export async function call<T>(
  transport: Transport,
  method: HttpMethod,
  path: string,
  payload: PlainObject = {},
  options: CallOptions = {},
): Promise<T> {
  try {
    const body = await transport.send<PlainObject>({
      method,
      path,
      payload: toWire(payload),
      complex: options.complex,
      fallback: options.fallback,
    });
    const result = fromWire<PlainObject>(body);
    return (options.pick ? result[options.pick] : result) as T;
  } catch (error) {
    throw mapArgumentNames(error, options.args);
  }
}

export async function callVoid(
  transport: Transport,
  method: HttpMethod,
  path: string,
  payload: PlainObject = {},
  options: CallOptions = {},
): Promise<void> {
  await call<unknown>(transport, method, path, payload, options);
}
