/** `@wix/redirects`: redirect sessions (hosted login, logout, checkout hand-off). */
import { call, enc } from '../core/generated.js';
import { REDIRECT_SESSION } from '../core/paths.js';
import type { Transport } from '../core/transport.js';
import type { MembersAccountSection, Prompt, RedirectSession, Tokens } from '../types.js';

/** Bodega's hosted checkout claims the shopper of the checkout link it was opened with. */
const HANDOVER_CLAIM = '/_api/bodega/v1/redirect-sessions';

interface WireHandover {
  checkoutId: string;
  shopper: 'VISITOR' | 'MEMBER' | 'NONE';
  tokens?: { access_token: string; refresh_token: string; expires_in: number };
  callbacks: { thankYouPageUrl?: string; postFlowUrl?: string };
}

/** Who the hosted checkout now acts as, its tokens (absent for NONE) and the link's checked callbacks. */
export interface CheckoutHandover {
  checkoutId: string;
  shopper: 'VISITOR' | 'MEMBER' | 'NONE';
  tokens?: Tokens;
  callbacks: { thankYouPageUrl?: string; postFlowUrl?: string };
}

export interface CreateRedirectSessionOptions {
  ecomCheckout?: { checkoutId: string };
  bookingsCheckout?: Record<string, unknown>;
  eventsCheckout?: Record<string, unknown>;
  paidPlansCheckout?: Record<string, unknown>;
  login?: Record<string, never>;
  logout?: { clientId: string };
  auth?: { authRequest: Record<string, unknown>; prompt?: Prompt };
  storesProduct?: { productSlug: string };
  bookingsBook?: Record<string, unknown>;
  membersAccount?: { section?: MembersAccountSection };
  callbacks?: {
    postFlowUrl?: string;
    thankYouPageUrl?: string;
    cartPageUrl?: string;
    loginUrl?: string;
    bookingsServiceListUrl?: string;
  };
  preferences?: { useGenericWixPages?: boolean; maintainIdentity?: boolean; [key: string]: unknown };
  origin?: string;
}

export function redirects(t: Transport) {
  return {
    createRedirectSession: (options: CreateRedirectSessionOptions = {}) =>
      call<{ redirectSession?: RedirectSession }>(t, 'POST', REDIRECT_SESSION, { ...options }, {
        args: { '*': 'options' },
      }),
    /**
     * Bodega's own call for its hosted checkout page: uses a checkout link's redirect session
     * (once) and answers the shopper who made it. Sent without the page's own token.
     */
    claimCheckoutHandover: async (redirectSessionId: string, options: { clientId: string; checkoutId: string }): Promise<CheckoutHandover> => {
      const { handover } = await t.send<{ handover: WireHandover }>({
        method: 'POST', path: `${HANDOVER_CLAIM}/${enc(redirectSessionId)}/claim`, payload: { ...options }, auth: false,
      });
      const tokens = handover.tokens && {
        accessToken: { value: handover.tokens.access_token, expiresAt: Math.floor(Date.now() / 1000) + Number(handover.tokens.expires_in) },
        refreshToken: { value: handover.tokens.refresh_token, role: handover.shopper === 'MEMBER' ? 'member' as const : 'visitor' as const },
      };
      return { checkoutId: handover.checkoutId, shopper: handover.shopper, callbacks: handover.callbacks, ...(tokens && { tokens }) };
    },
  };
}
