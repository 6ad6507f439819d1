// Who a cart or checkout belongs to: a visitor, a member, or an API key (itself or a shopper it names).
import type { RequestContext } from '../../platform/caller.js';
import { ApiError } from '../../platform/errors.js';

export type BuyerKind = 'visitor' | 'member' | 'app';

export interface Buyer {
  kind: BuyerKind;
  id: string;
}

/**
 * An API key has no buyer of its own. By default its "current cart" is the key's own cart (like a
 * point-of-sale terminal); a backend acting for a shopper names them in this header.
 */
export const BUYER_HEADER = 'bodega-buyer';

export function namedBuyer(ctx: RequestContext, header: string | string[] | undefined): Buyer | undefined {
  if (ctx.caller.kind !== 'APP') return undefined;
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  const match = /^(visitor|member):([A-Za-z0-9_-]{1,100})$/.exec(value);
  if (!match) throw ApiError.validation([{ field: BUYER_HEADER, rule: 'FORMAT', description: 'use visitor:<visitorId> or member:<memberId>' }]);
  return { kind: match[1] as 'visitor' | 'member', id: match[2] };
}

/** The cart a caller means by "current": a visitor's or member's own; an API key's own or a named buyer's. */
export function currentBuyer(ctx: RequestContext, named?: Buyer): Buyer {
  switch (ctx.caller.kind) {
    case 'ANONYMOUS_VISITOR':
      return { kind: 'visitor', id: ctx.caller.subjectId };
    case 'MEMBER':
    case 'WIX_USER':
      return { kind: 'member', id: ctx.caller.subjectId };
    case 'APP':
      return named ?? { kind: 'app', id: ctx.caller.subjectId };
  }
}
