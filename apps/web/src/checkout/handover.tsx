/**
 * The hosted checkout taking over a headless app's shopper. An app sends its shopper to
 * `/checkout?checkoutId=…&redirectSessionId=…`; this page claims the redirect session once (the
 * server hands over the visitor or member who made it, and the callbacks it checked against the
 * site's allowed origins), keeps the callbacks for this tab, and takes the link's session id out of
 * the address bar. Callback URLs in the query string are never followed: only the server's.
 */
import { useEffect } from 'react';
import { useSearchParams } from '../router/Router.js';
import type { CheckoutHandover } from '@bodega/sdk';
import { errorCode } from '../shop/errors.js';
import { notifySignInChanged, useForgetShopper } from '../shop/member.js';
import { useShop } from '../shop/context.js';
import { EmptyState, Loading } from '../ui/States.js';
import { useHandoverClaim } from './queries.js';

type Callbacks = CheckoutHandover['callbacks'];

const storageKey = (checkoutId: string) => `bodega_checkout_callbacks:${checkoutId}`;

/** The app's callbacks for this checkout, as the server handed them over in this tab. */
export function checkoutCallbacks(checkoutId: string): Callbacks {
  if (typeof window === 'undefined' || !checkoutId) return {};
  try {
    const stored = JSON.parse(window.sessionStorage.getItem(storageKey(checkoutId)) ?? '{}') as Record<string, unknown>;
    const pick = (value: unknown) => (typeof value === 'string' && /^https?:\/\//.test(value) ? value : undefined);
    return { thankYouPageUrl: pick(stored.thankYouPageUrl), postFlowUrl: pick(stored.postFlowUrl) };
  } catch {
    return {};
  }
}

/**
 * Where the shopper goes once the order is placed: the app's thank-you page with `orderId`
 * added to its query (as Wix does after an eCommerce checkout), else this shop's own.
 */
export function thankYouTarget(checkoutId: string, orderId: string): { external: boolean; url: string } {
  const appPage = checkoutCallbacks(checkoutId).thankYouPageUrl;
  if (appPage) {
    const url = new URL(appPage);
    url.searchParams.set('orderId', orderId);
    return { external: true, url: url.toString() };
  }
  return { external: false, url: `/checkout/thank-you?orderId=${encodeURIComponent(orderId)}` };
}

export type HandoverState = 'none' | 'claiming' | 'done' | 'refused';

/** Claims the link's shopper when the page was opened with a redirect session. */
export function useCheckoutHandover(checkoutId: string): { state: HandoverState; error?: unknown } {
  const { client } = useShop();
  const forgetShopper = useForgetShopper();
  const [params, setParams] = useSearchParams();
  const redirectSessionId = params.get('redirectSessionId') ?? '';
  const claim = useHandoverClaim(redirectSessionId, checkoutId, (handover) => {
    if (handover.tokens) {
      client?.auth.setTokens(handover.tokens);
      // Nothing of the shopper this page was before stays on screen.
      forgetShopper();
      notifySignInChanged();
    }
    window.sessionStorage.setItem(storageKey(checkoutId), JSON.stringify(handover.callbacks));
  });
  const claimed = claim.isSuccess;
  useEffect(() => {
    if (!claimed) return;
    // The used link leaves the address bar (and history), so a reload or a shared URL does not carry it.
    setParams((current) => {
      const next = new URLSearchParams(current);
      for (const key of ['redirectSessionId', 'thankYouPageUrl', 'postFlowUrl']) next.delete(key);
      return next;
    }, { replace: true });
  }, [claimed, setParams]);
  if (!redirectSessionId) return { state: 'none' };
  if (claim.isError) return { state: 'refused', error: claim.error };
  return { state: claim.isSuccess ? 'done' : 'claiming' };
}

/** What the page shows while claiming, or instead of the checkout when the link cannot be used. */
export function HandoverStatus({ state, error }: { state: HandoverState; error?: unknown }) {
  if (state === 'claiming') return <Loading label="Opening your checkout…" lines={6} page />;
  const code = errorCode(error);
  const title = code === 'REDIRECT_SESSION_USED' ? 'This checkout link was already used'
    : code === 'REDIRECT_SESSION_EXPIRED' ? 'This checkout link has expired'
      : code === 'MEMBER_NOT_HANDED_OVER' ? 'Sign in to finish this checkout'
        : code === 'REDIRECT_SESSION_NOT_FOUND' ? 'This checkout link does not work'
          : 'Your checkout didn’t open';
  return (
    <EmptyState title={title} action={{ to: '/', label: 'Go to the store' }}>
      <p>For your safety, a checkout link opens once, within 15 minutes. Go back to the shop you came from and check out again; your cart is kept there.</p>
    </EmptyState>
  );
}

/** “Back to store”: the app's page the shopper came from, when the link named one. */
export function BackToApp({ checkoutId }: { checkoutId: string }) {
  const { postFlowUrl } = checkoutCallbacks(checkoutId);
  if (!postFlowUrl) return null;
  return <p className="muted small"><a href={postFlowUrl}>← Back to store</a></p>;
}
