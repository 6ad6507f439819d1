/**
 * The hosted checkout taking over a headless app's shopper. An app creates a checkout and a
 * redirect session `{ecomCheckout: {checkoutId}}` with its visitor's or member's token; the
 * browser lands on the shop's `/checkout?checkoutId=…&redirectSessionId=…`, and the page claims
 * the session here: once, within HANDOVER_TTL_MS of its creation, naming the checkout it was made
 * for. The answer is a session of the shop's own client for the shopper who created the link — a
 * visitor stays that visitor, a plain member that member — plus the callbacks that were checked
 * against the site's allowed origins when the session was created. The threat model is in the
 * README ("The hosted checkout takes over the app's shopper").
 */
import { withTransaction, type SiteContext } from '../../platform/context.js';
import { ApiError } from '../../platform/errors.js';
import type { IdentityService } from '../identity/service.js';
import type { OAuthService, TokenResponse } from '../oauth/service.js';
import type { SitesService } from '../sites/service.js';
import * as store from './store.js';

export type HandedOverShopper = 'VISITOR' | 'MEMBER' | 'NONE';

export interface CheckoutHandover {
  checkoutId: string;
  /** Who the page now acts as: the app's visitor, its member, or nobody (an API key or the owner made the link). */
  shopper: HandedOverShopper;
  /** The token endpoint's answer for that shopper, through the claiming client; absent for NONE. */
  tokens?: TokenResponse;
  /** The session's callbacks, on the site's allowed origins (checked when it was created). */
  callbacks: { thankYouPageUrl?: string; postFlowUrl?: string };
}

export interface HandoverDeps {
  sites: SitesService;
  oauth: OAuthService;
  identity: IdentityService;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const notFound = () => ApiError.notFound('REDIRECT_SESSION_NOT_FOUND', 'This checkout link is unknown, or not for this checkout');

function callbacksOf(request: Record<string, unknown>): CheckoutHandover['callbacks'] {
  const stored = (request.callbacks ?? {}) as Record<string, unknown>;
  const out: CheckoutHandover['callbacks'] = {};
  if (typeof stored.thankYouPageUrl === 'string') out.thankYouPageUrl = stored.thankYouPageUrl;
  if (typeof stored.postFlowUrl === 'string') out.postFlowUrl = stored.postFlowUrl;
  return out;
}

export class CheckoutHandovers {
  constructor(private readonly deps: HandoverDeps) {}

  /** Claims a checkout redirect session for the page of `clientId` (a client of the session's site). */
  async claim(clientId: string, redirectSessionId: string, checkoutId: string): Promise<CheckoutHandover> {
    const { ctx } = await this.deps.sites.siteForClient(clientId);
    await this.deps.sites.activeSite(ctx);
    if (!UUID.test(redirectSessionId)) throw notFound();
    const result = await withTransaction(ctx, async (tx) => {
      const row = await store.claimCheckoutSession(tx, redirectSessionId, checkoutId, tx.now());
      if (!row) return this.refusal(tx, redirectSessionId, checkoutId);
      const handover = { checkoutId, callbacks: callbacksOf(row.request) };
      if (row.member_id) {
        // A member who is blocked now, or has since been given back-office rights, is not handed over by a link.
        const access = (await this.deps.identity.mayEnter(tx, row.member_id)) ? await this.deps.identity.memberAccess(tx, row.member_id) : null;
        if (!access || access.memberRole !== 'MEMBER') return new ApiError(403, 'MEMBER_NOT_HANDED_OVER', 'Sign in on this store to finish the checkout');
        const tokens = await this.deps.oauth.startSession(tx, { clientId, role: 'member', subjectId: row.member_id, memberRole: 'MEMBER' });
        return { ...handover, shopper: 'MEMBER' as const, tokens };
      }
      if (row.visitor_id) {
        return { ...handover, shopper: 'VISITOR' as const, tokens: await this.deps.oauth.visitorSession(tx, clientId, row.visitor_id) };
      }
      return { ...handover, shopper: 'NONE' as const };
    });
    if (result instanceof ApiError) throw result;
    return result;
  }

  /** Why a claim failed, without telling a stranger more than that the link no longer works. */
  private async refusal(ctx: SiteContext, redirectSessionId: string, checkoutId: string): Promise<ApiError> {
    const row = await store.findRedirectSession(ctx, redirectSessionId);
    const forCheckout = (row?.request.ecomCheckout as { checkoutId?: unknown } | undefined)?.checkoutId;
    if (!row || row.kind !== 'ecomCheckout' || forCheckout !== checkoutId) return notFound();
    if (row.used_at) return new ApiError(410, 'REDIRECT_SESSION_USED', 'This checkout link was already used');
    return new ApiError(410, 'REDIRECT_SESSION_EXPIRED', 'This checkout link has expired');
  }
}
