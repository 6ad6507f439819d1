import { useSearchParams } from '../router/Router.js';
import { useShop } from '../shop/context.js';

/**
 * Where the sign-in continues: another application's client and redirect session (the hosted
 * pages), or — with neither — this shop, back to `returnTo`.
 */
export interface FlowParams {
  clientId: string | null;
  redirectSessionId: string | null;
  /** A path of this shop to come back to (only for the shop's own sign-in). */
  returnTo: string | null;
  /** True when the member signs in to this shop rather than to another application. */
  shop: boolean;
}

export function useFlowParams(): FlowParams {
  const [params] = useSearchParams();
  const { site } = useShop();
  const redirectSessionId = params.get('redirectSessionId');
  const clientId = params.get('clientId') ?? (redirectSessionId ? null : site.clientId || null);
  const returnTo = params.get('returnTo');
  return {
    clientId,
    redirectSessionId,
    returnTo: returnTo && returnTo.startsWith('/') && !returnTo.startsWith('//') ? returnTo : null,
    shop: !redirectSessionId && clientId === site.clientId,
  };
}

/** The query string that keeps the flow going from one hosted page to the next. */
export function flowQuery(flow: FlowParams, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams();
  if (!flow.shop) {
    if (flow.clientId) query.set('clientId', flow.clientId);
    if (flow.redirectSessionId) query.set('redirectSessionId', flow.redirectSessionId);
  }
  if (flow.returnTo) query.set('returnTo', flow.returnTo);
  for (const [key, value] of Object.entries(extra)) query.set(key, value);
  const text = query.toString();
  return text ? `?${text}` : '';
}

/**
 * Hands the new session to the server's authorize step with a form POST (the token stays out of
 * URLs and history); the server answers with a redirect back to the application, carrying the code.
 */
export function continueToApplication(flow: FlowParams, sessionToken: string): boolean {
  if (!flow.clientId || !flow.redirectSessionId) return false;
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = '/oauth2/authorize';
  form.hidden = true;
  for (const [name, value] of Object.entries({ clientId: flow.clientId, redirectSessionId: flow.redirectSessionId, sessionToken })) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.appendChild(input);
  }
  document.body.appendChild(form);
  form.submit();
  return true;
}
