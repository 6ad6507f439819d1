import { BodegaError } from '@bodega/sdk';

/**
 * Every server refusal the shop shows, in plain words, keyed by the server's error code. One place,
 * so pages never parse messages.
 */
const BY_CODE: Record<string, string | ((data: Record<string, unknown>) => string)> = {
  TOO_MANY_LOGIN_ATTEMPTS: (data) => `Too many attempts. Try again in ${waitText(data.retryAfterSeconds)}.`,
  '-19976': 'The e-mail or the password is wrong.',
  '-19995': 'An account with this e-mail already exists. Sign in instead.',
  '-19973': 'This account needs a new password. Use “Forgot your password?” to get a link by e-mail.',
  '-19971': 'This store asks for a captcha check that this page cannot show. Contact the store.',
  '-19970': 'This store asks for a captcha check that this page cannot show. Contact the store.',
  TOO_MANY_REQUESTS: (data) => `Too many attempts. Try again in ${waitText(data.retryAfterSeconds)}.`,
  NOT_FOUND: 'We don’t know this code. Check the spelling and try again.',
  NOT_YET_VALID: 'This code is not valid yet.',
  EXPIRED: 'This code has expired.',
  USAGE_LIMIT_REACHED: 'This code has been used up.',
  NOT_APPLICABLE_TO_ITEMS: 'This code does not apply to what is in your cart.',
  MINIMUM_NOT_MET: 'Your order is below the minimum for this code.',
  COUPON_NOT_FOUND: 'We don’t know this code. Check the spelling and try again.',
  ITEM_OUT_OF_STOCK: 'Sorry, this item is out of stock.',
  INSUFFICIENT_INVENTORY: 'There are not enough left for that quantity.',
  OPTIONS_REQUIRED: 'Choose the options first.',
  VARIANT_NOT_FOUND: 'This combination is not available.',
  PAYMENT_DECLINED: 'Your card was declined. Nothing was charged; check the details or use another card.',
  INVALID_PAYMENT_TOKEN: 'The card details could not be used. Check them and try again.',
  CHECKOUT_ALREADY_COMPLETED: 'This order has already been placed.',
  OWNED_CART_NOT_FOUND: 'Your cart is empty.',
  GIFT_CARDS_NOT_SUPPORTED: 'This store does not take gift cards.',
  PERMISSION_DENIED: 'You need to sign in for this.',
};

function waitText(seconds: unknown): string {
  const s = typeof seconds === 'number' && seconds > 0 ? Math.ceil(seconds) : 60;
  if (s < 90) return `${s} seconds`;
  return `${Math.ceil(s / 60)} minutes`;
}

export function errorCode(error: unknown): string | undefined {
  if (!(error instanceof BodegaError)) return undefined;
  const code = error.details.applicationError?.code ?? error.code;
  return code === undefined ? undefined : String(code);
}

/** A server error (or a network failure) as a sentence a shopper understands. */
export function plainError(error: unknown, fallback = 'Something went wrong. Try again.'): string {
  if (error instanceof BodegaError) {
    const code = errorCode(error);
    const known = code ? BY_CODE[code] : undefined;
    if (known) return typeof known === 'string' ? known : known(asRecord(error.details.applicationError?.data));
    if (error.status === 429) return 'Too many attempts. Wait a minute and try again.';
    const violation = error.details.validationError?.fieldViolations[0];
    if (violation) return `${fieldName(violation.field)}: ${violation.description}.`;
    const description = error.details.applicationError?.description;
    if (description && error.status !== undefined && error.status < 500) return description.endsWith('.') ? description : `${description}.`;
    if (error.status === undefined) return 'The store could not be reached. Check your connection and try again.';
    return fallback;
  }
  return 'The store could not be reached. Check your connection and try again.';
}

function fieldName(field: string): string {
  const last = field.split('.').pop() ?? field;
  if (/password/i.test(last)) return 'Password';
  const words = last.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}
