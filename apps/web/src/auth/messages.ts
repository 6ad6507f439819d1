import { plainError } from '../shop/errors.js';

/** A server error from a sign-in call in plain words (the codes live in shop/errors.ts). */
export function errorMessage(error: unknown): string {
  return plainError(error);
}
