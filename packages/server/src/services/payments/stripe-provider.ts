// The `stripe` provider, on the official `stripe` package only: PaymentIntents confirmed on the
// server with the PaymentMethod the storefront's Payment Element created (card data never reaches
// Bodega), capture_method from the site's capture policy, 3-D Secure through the intent's
// next_action, refunds and cancels through the API, webhooks checked with webhooks.constructEvent.
import Stripe from 'stripe';
import { ProviderError, type AuthorizeRequest, type IntentStatus, type MoneyMove, type MoneyMoveStatus, type PaymentProvider, type ProviderEvent, type ProviderIntent } from './provider.js';

/** Where the SDK sends its requests: Stripe itself unless a stand-in is named (tests). */
export interface StripeApi {
  host: string;
  port: number;
  protocol: 'http' | 'https';
}

export interface StripeKeys {
  secretKey: string;
  webhookSecret: string | null;
}

const TIMEOUT_MS = 20_000;

/** STRIPE_API_URL (a stand-in of the Stripe API, for tests and local work) as the SDK's host, port and protocol. */
export function stripeApiFromUrl(url: string | undefined): StripeApi | undefined {
  if (!url) return undefined;
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`STRIPE_API_URL must be an http(s) URL, not ${url}`);
  const protocol = parsed.protocol === 'http:' ? 'http' : 'https';
  return { host: parsed.hostname, port: parsed.port ? Number(parsed.port) : protocol === 'http' ? 80 : 443, protocol };
}

function minor(amount: bigint): number {
  if (amount > BigInt(Number.MAX_SAFE_INTEGER)) throw new ProviderError('INVALID', 'The amount is too large for the provider');
  return Number(amount);
}

function statusOf(intent: Stripe.PaymentIntent): IntentStatus {
  switch (intent.status) {
    case 'succeeded': return 'APPROVED';
    case 'requires_capture': return 'AUTHORIZED';
    case 'processing': return 'PENDING';
    case 'requires_action': return 'REQUIRES_ACTION';
    case 'canceled': return 'CANCELED';
    case 'requires_payment_method': return 'DECLINED';
    default: return 'PENDING';
  }
}

function toIntent(intent: Stripe.PaymentIntent): ProviderIntent {
  const status = statusOf(intent);
  const redirect = intent.next_action?.redirect_to_url?.url;
  const failure = intent.last_payment_error?.message;
  return {
    id: intent.id,
    status,
    amount: BigInt(intent.amount),
    currency: intent.currency.toUpperCase(),
    ...(status === 'REQUIRES_ACTION' && redirect ? { actionUrl: redirect } : {}),
    ...(intent.client_secret && status === 'REQUIRES_ACTION' ? { clientSecret: intent.client_secret } : {}),
    ...(status === 'DECLINED' ? { failure: failure ?? 'The card was declined.' } : {}),
  };
}

/** The SDK's errors in the interface's terms. */
function failureOf(error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  if (!(error instanceof Stripe.errors.StripeError)) return new ProviderError('INTERNAL_ERROR', error instanceof Error ? error.message : String(error));
  // No answer (a time-out, a lost connection, a gateway's 502-504) is PROVIDER_IS_DOWN; an answer
  // that is Stripe's own failure (api_error, a 500) is INTERNAL_ERROR.
  if (error instanceof Stripe.errors.StripeConnectionError || [502, 503, 504].includes(error.statusCode ?? 0)) {
    return new ProviderError('PROVIDER_IS_DOWN', `Stripe did not answer: ${error.message}`);
  }
  if (error instanceof Stripe.errors.StripeAPIError || (error.statusCode ?? 0) >= 500) return new ProviderError('INTERNAL_ERROR', `Stripe failed: ${error.message}`);
  if (error instanceof Stripe.errors.StripeAuthenticationError) return new ProviderError('ACCESS_DENIED', `Stripe refused the site's keys: ${error.message}`);
  if (error instanceof Stripe.errors.StripePermissionError) return new ProviderError('FORBIDDEN', `The site's Stripe key may not do this: ${error.message}`);
  if (error.code === 'resource_missing') return new ProviderError('TRANSACTION_NOT_FOUND', `Stripe has no such payment: ${error.message}`);
  if (error.code === 'charge_expired_for_capture') return new ProviderError('EXPIRED', `The authorization expired: ${error.message}`);
  return new ProviderError('INVALID', `Stripe refused the request: ${error.message}`);
}

async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw failureOf(error);
  }
}

function moveStatus(status: string | null | undefined): MoneyMoveStatus {
  if (status === 'succeeded') return 'SUCCEEDED';
  if (status === 'failed' || status === 'canceled') return 'FAILED';
  return 'PENDING';
}

function idOf(value: string | { id: string } | null | undefined): string {
  return typeof value === 'string' ? value : value?.id ?? '';
}

export function stripeProvider(keys: StripeKeys, api?: StripeApi): PaymentProvider {
  const stripe = new Stripe(keys.secretKey, { timeout: TIMEOUT_MS, maxNetworkRetries: 1, ...(api && { host: api.host, port: api.port, protocol: api.protocol }) });

  async function create(request: AuthorizeRequest): Promise<ProviderIntent> {
    try {
      const intent = await stripe.paymentIntents.create({
        amount: minor(request.amount),
        currency: request.currency.toLowerCase(),
        payment_method: request.token,
        confirm: true,
        capture_method: request.capture === 'MANUAL' ? 'manual' : 'automatic',
        return_url: request.returnUrl,
        metadata: request.metadata,
      }, { idempotencyKey: request.idempotencyKey });
      return toIntent(intent);
    } catch (error) {
      // A decline is an answer, not a failure: Stripe sends it as a card error with the intent.
      if (error instanceof Stripe.errors.StripeCardError) {
        const raw = error.raw as { payment_intent?: Stripe.PaymentIntent };
        const id = raw.payment_intent?.id ?? `declined_${request.idempotencyKey}`;
        return { id, status: 'DECLINED', amount: request.amount, currency: request.currency, failure: error.message };
      }
      throw failureOf(error);
    }
  }

  return {
    id: 'stripe',
    authorize: create,

    async lookup(ref) {
      try {
        if ('intentId' in ref) return toIntent(await stripe.paymentIntents.retrieve(ref.intentId));
        // Our commit was lost: the same request under the same key answers the intent it made then.
        const first = await create(ref.request);
        if (first.id.startsWith('declined_')) return first;
        return toIntent(await stripe.paymentIntents.retrieve(first.id));
      } catch (error) {
        const failure = failureOf(error);
        if (failure.failure === 'TRANSACTION_NOT_FOUND') return null;
        throw failure;
      }
    },

    async capture(intentId, amount, idempotencyKey): Promise<MoneyMove> {
      const intent = await call(() => stripe.paymentIntents.capture(intentId, { amount_to_capture: minor(amount) }, { idempotencyKey }));
      return { providerId: idOf(intent.latest_charge) || intent.id, status: intent.status === 'succeeded' ? 'SUCCEEDED' : intent.status === 'processing' ? 'PENDING' : 'FAILED' };
    },

    async void(intentId, idempotencyKey): Promise<MoneyMove> {
      const intent = await call(() => stripe.paymentIntents.cancel(intentId, {}, { idempotencyKey }));
      return { providerId: intent.id, status: intent.status === 'canceled' ? 'SUCCEEDED' : 'FAILED' };
    },

    async refund(intentId, amount, idempotencyKey): Promise<MoneyMove> {
      const refund = await call(() => stripe.refunds.create({ payment_intent: intentId, amount: minor(amount) }, { idempotencyKey }));
      return { providerId: refund.id, status: moveStatus(refund.status), ...(refund.failure_reason ? { failure: refund.failure_reason } : {}) };
    },

    parseWebhook(rawBody, signature): ProviderEvent {
      if (!keys.webhookSecret) throw new ProviderError('INVALID', 'No webhook signing secret is set for this site');
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature ?? '', keys.webhookSecret);
      } catch (error) {
        throw new ProviderError('INVALID', `The webhook's signature does not check: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (event.type.startsWith('payment_intent.')) {
        const intent = event.data.object as Stripe.PaymentIntent;
        return { kind: 'intent', eventId: event.id, intent: toIntent(intent), metadata: { ...intent.metadata } };
      }
      if (event.type === 'charge.refunded') {
        const charge = event.data.object as Stripe.Charge;
        return { kind: 'refund', eventId: event.id, intentId: idOf(charge.payment_intent), refundId: charge.id, amount: BigInt(charge.amount_refunded), status: 'SUCCEEDED' };
      }
      if (event.type === 'charge.dispute.created') {
        const dispute = event.data.object as Stripe.Dispute;
        return { kind: 'dispute', eventId: event.id, intentId: idOf(dispute.payment_intent), disputeId: dispute.id, amount: BigInt(dispute.amount), reason: dispute.reason };
      }
      return { kind: 'ignored', eventId: event.id, type: event.type };
    },

    async testConnection() {
      await call(() => stripe.balance.retrieve());
    },
  };
}
