/** `@wix/redirects`: redirect sessions (hosted login, logout, checkout hand-off). */
import { call } from '../core/generated.js';
import { REDIRECT_SESSION } from '../core/paths.js';
import type { Transport } from '../core/transport.js';
import type { MembersAccountSection, Prompt, RedirectSession } from '../types.js';

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
  };
}
