// The payment-provider interface: what Bodega asks of any provider (test, offline, Stripe).
// Amounts are minor units (bigint); every call that moves money carries an idempotency key made
// of our own ids, so repeating a call (a retry, a second tab, the sweep after a crash) answers the
// first call's result instead of moving the money twice.

/** Where a provider's payment intent stands. */
export type IntentStatus =
  | 'APPROVED' // captured (a sale)
  | 'AUTHORIZED' // held on the card, to be captured or voided
  | 'PENDING' // the provider has not decided yet
  | 'REQUIRES_ACTION' // the shopper must act (3-D Secure) and come back
  | 'DECLINED'
  | 'CANCELED' // given up before any money was taken
  | 'VOIDED'; // an authorization released

export interface ProviderIntent {
  /** The provider's id of the payment (a Stripe PaymentIntent id). */
  id: string;
  status: IntentStatus;
  amount: bigint;
  currency: string;
  /** Where the shopper completes a required action, when status is REQUIRES_ACTION. */
  actionUrl?: string;
  /** What the provider's browser script needs to continue (Stripe's client secret). */
  clientSecret?: string;
  /** The provider's words for a decline or failure. */
  failure?: string;
  /** When an authorization can no longer be captured. */
  authorizationExpiresAt?: Date;
}

export interface AuthorizeRequest {
  idempotencyKey: string;
  amount: bigint;
  currency: string;
  /** What the storefront's payment form produced (a test token or a Stripe PaymentMethod id). */
  token: string;
  /** AUTOMATIC captures at once; MANUAL only authorizes (capture later, or void). */
  capture: 'AUTOMATIC' | 'MANUAL';
  /** Where the shopper comes back to after a 3-D Secure challenge. */
  returnUrl: string;
  /** Our ids, kept by the provider and sent back in its webhooks. */
  metadata: Record<string, string>;
}

export type MoneyMoveStatus = 'SUCCEEDED' | 'PENDING' | 'FAILED';

export interface MoneyMove {
  /** The provider's id of the capture, refund or void. */
  providerId: string;
  status: MoneyMoveStatus;
  failure?: string;
}

/** What a provider's webhook tells us, after its signature was checked. */
export type ProviderEvent =
  | { kind: 'intent'; eventId: string; intent: ProviderIntent; metadata: Record<string, string> }
  | { kind: 'refund'; eventId: string; intentId: string; refundId: string; amount: bigint; status: MoneyMoveStatus }
  | { kind: 'dispute'; eventId: string; intentId: string; disputeId: string; amount: bigint; reason: string }
  | { kind: 'ignored'; eventId: string; type: string };

/** Why a provider call failed, in the terms the spec's reasons are made of. */
export type ProviderFailure =
  | 'PROVIDER_IS_DOWN' // no answer, a time-out, a 5xx
  | 'ACCESS_DENIED' // our keys were refused
  | 'FORBIDDEN' // our keys may not do this (a restricted key)
  | 'TRANSACTION_NOT_FOUND' // the provider does not know the payment
  | 'DISABLED_BY_PROVIDER' // the provider refuses this operation on this payment
  | 'EXPIRED' // the authorization lapsed
  | 'INVALID' // the request was refused (a bad token, an amount over what is left)
  | 'INTERNAL_ERROR';

export class ProviderError extends Error {
  constructor(readonly failure: ProviderFailure, message: string) {
    super(message);
    this.name = 'ProviderError';
  }
}

export interface PaymentProvider {
  readonly id: string;
  /** Takes or holds the money; a decline is an intent with status DECLINED, not a throw. */
  authorize(request: AuthorizeRequest): Promise<ProviderIntent>;
  /** Captures all or part of an authorization. */
  capture(intentId: string, amount: bigint, idempotencyKey: string): Promise<MoneyMove>;
  /** Releases an authorization. */
  void(intentId: string, idempotencyKey: string): Promise<MoneyMove>;
  /** Gives back all or part of captured money. */
  refund(intentId: string, amount: bigint, idempotencyKey: string): Promise<MoneyMove>;
  /**
   * The intent as the provider has it now: by its id, or (when our commit was lost) by the
   * idempotency key and request it was created with. Null when the provider has no such payment.
   */
  lookup(ref: { intentId: string } | { request: AuthorizeRequest }): Promise<ProviderIntent | null>;
  /** Checks a webhook's signature and reads it; throws a ProviderError('INVALID') when it is not the provider's. */
  parseWebhook(rawBody: string, signature: string | undefined): ProviderEvent;
  /** Proves the keys work (the back office's "test connection"). */
  testConnection(): Promise<void>;
}
