/** Data store errors: client-side WDE errors and the mapping of server errors (spec §8, wire §5.4–5.5). */
import { BodegaError } from '../../core/errors.js';

export const ITEM_NOT_FOUND = 'WDE0073';
export const ITEM_ALREADY_EXISTS = 'WDE0074';
const HOOK_ERROR = 'WDE0078';

/** An error whose `details.applicationError.code` is the WDE prefix of its message. */
export function wde(message: string): BodegaError {
  const code = /^WDE\d{4}/.exec(message)?.[0] ?? 'WDE0020';
  return new BodegaError(message, { code, details: { applicationError: { code, description: message } } });
}

export function hasCode(error: unknown, code: string): boolean {
  return error instanceof BodegaError && error.details.applicationError?.code === code;
}

/** A server (or network) failure of a data call, as the data SDK reports it. */
export function dataError(error: unknown): Error {
  if (!(error instanceof BodegaError)) return error instanceof Error ? error : new Error(String(error));
  const { status, requestId, details } = error;
  const init = { status, requestId, details, cause: error };
  if (status === 413) return new BodegaError('WDE0109: Payload is too large.', { ...init, code: 'WDE0109' });
  if (status === undefined) {
    // Not an answer from the server (network failure, unparsable body).
    return new BodegaError('WDE0054: Internal error: unknown error.', { ...init, code: 'WDE0054' });
  }
  const violations = details.validationError?.fieldViolations;
  if (violations) {
    const lines = violations.map((v) => `${v.field}: ${v.description}`);
    return new BodegaError([error.message, ...lines].join('\n'), init);
  }
  const application = details.applicationError;
  if (application?.code === HOOK_ERROR) {
    const data = application.data as { jsErrorValue?: { name?: string; message?: string; code?: string } } | undefined;
    const hook = data?.jsErrorValue;
    const hookError = new BodegaError(hook?.message ?? application.description, {
      ...init,
      code: hook?.code ?? HOOK_ERROR,
    });
    if (hook?.name) Object.defineProperty(hookError, 'name', { value: hook.name });
    return hookError;
  }
  return new BodegaError(application?.description ?? error.message, init);
}
