// Payments: a site's provider and keys, the attempts made to pay checkouts, and the record of every
// provider call. Orders and checkout call this service; it knows neither of them.
import { ApiError } from '../../platform/errors.js';
import { poolContext, type SiteContext } from '../../platform/context.js';
import type { RequestContext } from '../../platform/caller.js';
import type { Db } from '../../platform/db.js';
import { newId } from '../../platform/ids.js';
import { hint } from './credentials.js';
import { decryptSecret, encryptSecret, type Keyring, type SealedColumn } from '../../platform/secrets.js';
import { ProviderError, type PaymentProvider, type ProviderFailure } from './provider.js';
import { stripeProvider, type StripeApi } from './stripe-provider.js';
import { testPaymentProvider } from './test-provider.js';
import * as store from './store.js';

export { ProviderError, type AuthorizeRequest, type IntentStatus, type MoneyMove, type PaymentProvider, type ProviderEvent, type ProviderFailure, type ProviderIntent } from './provider.js';
export { settleTestIntent, TEST_TOKENS, testPaymentProvider } from './test-provider.js';
export { stripeApiFromUrl, type StripeApi } from './stripe-provider.js';
export type { Attempt, AttemptStatus, Transaction, TransactionKind } from './store.js';

/** `none`: the site takes only offline payments. */
export const PROVIDERS = ['test', 'stripe', 'none'] as const;
export type ProviderName = (typeof PROVIDERS)[number];
export const CAPTURE_POLICIES = ['ON_CHECKOUT', 'ON_FULFILLMENT'] as const;
export type CapturePolicy = (typeof CAPTURE_POLICIES)[number];
export const OFFLINE_METHODS = ['PAY_LATER', 'BANK_TRANSFER', 'CASH_ON_DELIVERY'] as const;
export type OfflineMethod = (typeof OFFLINE_METHODS)[number];

export interface PaymentSettings {
  provider: ProviderName;
  capturePolicy: CapturePolicy;
  offlineMethods: OfflineMethod[];
  publishableKey: string | null;
  /** The secret key is never shown again: only its kind and last four characters. */
  secretKeyHint: string | null;
  webhookSecretSet: boolean;
}

export interface SettingsPatch {
  provider?: ProviderName;
  capturePolicy?: CapturePolicy;
  offlineMethods?: OfflineMethod[];
  publishableKey?: string | null;
  secretKey?: string;
  webhookSecret?: string;
}

const DEFAULTS: PaymentSettings = { provider: 'test', capturePolicy: 'ON_CHECKOUT', offlineMethods: ['PAY_LATER'], publishableKey: null, secretKeyHint: null, webhookSecretSet: false };

/** A provider failure in the wire error shape, with the reason a storefront or back office can show. */
export function providerFailure(error: ProviderError, doing: string): ApiError {
  const status = error.failure === 'PROVIDER_IS_DOWN' ? 503 : error.failure === 'INTERNAL_ERROR' ? 502 : 400;
  const code = error.failure === 'PROVIDER_IS_DOWN' ? 'PAYMENT_PROVIDER_UNAVAILABLE' : error.failure === 'INVALID' ? 'PAYMENT_PROVIDER_REFUSED' : error.failure;
  return new ApiError(status, code, `The payment provider could not ${doing}: ${error.message}`, { reason: error.failure });
}

export interface PaymentsOptions {
  now: () => Date;
  /** The server key the provider's secrets are sealed with (platform/secrets.ts). */
  keyring: Keyring;
  /** Tests point the Stripe SDK at a local stand-in. */
  stripeApi?: StripeApi;
}

/** The provider's secrets, sealed with the server key (start-up sealing, `secrets rotate`). */
export const PAYMENT_SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: 'payment_settings', keys: ['site_id'], column: 'secret_key_sealed' },
  { table: 'payment_settings', keys: ['site_id'], column: 'webhook_secret_sealed' },
];

export class PaymentsService {
  private readonly stripes = new Map<string, { at: number; provider: PaymentProvider }>();

  constructor(private readonly db: Db, private readonly options: PaymentsOptions) {}

  async settings(ctx: SiteContext): Promise<PaymentSettings> {
    const row = await store.findSettings(ctx);
    if (!row) return { ...DEFAULTS };
    return {
      provider: row.provider as ProviderName,
      capturePolicy: row.capture_policy as CapturePolicy,
      offlineMethods: row.offline_methods as OfflineMethod[],
      publishableKey: row.publishable_key,
      secretKeyHint: row.secret_key_hint,
      webhookSecretSet: row.webhook_secret_sealed !== null,
    };
  }

  async updateSettings(ctx: RequestContext, patch: SettingsPatch): Promise<PaymentSettings> {
    const row = await store.findSettings(ctx);
    const next: store.SettingsRow = {
      provider: patch.provider ?? row?.provider ?? DEFAULTS.provider,
      capture_policy: patch.capturePolicy ?? row?.capture_policy ?? DEFAULTS.capturePolicy,
      offline_methods: patch.offlineMethods ?? row?.offline_methods ?? DEFAULTS.offlineMethods,
      publishable_key: patch.publishableKey !== undefined ? patch.publishableKey : row?.publishable_key ?? null,
      secret_key_sealed: patch.secretKey ? encryptSecret(this.options.keyring, patch.secretKey) : row?.secret_key_sealed ?? null,
      secret_key_hint: patch.secretKey ? hint(patch.secretKey) : row?.secret_key_hint ?? null,
      webhook_secret_sealed: patch.webhookSecret ? encryptSecret(this.options.keyring, patch.webhookSecret) : row?.webhook_secret_sealed ?? null,
      updated_at: ctx.now(),
    };
    if (next.provider === 'stripe' && !next.secret_key_sealed) {
      throw ApiError.validation([{ field: 'settings.secretKey', rule: 'REQUIRED_FIELD', description: 'Stripe needs the secret key of the account' }]);
    }
    await store.saveSettings(ctx, next);
    this.stripes.delete(ctx.siteId);
    return this.settings(ctx);
  }

  /** The provider by name, with the site's keys. */
  async provider(ctx: SiteContext, name: string): Promise<PaymentProvider> {
    if (name === 'test') return testPaymentProvider;
    if (name !== 'stripe') throw new ApiError(400, 'PAYMENT_PROVIDER_IS_NOT_AVAILABLE_ON_SITE', `No payment provider "${name}" on this site`);
    const row = await store.findSettings(ctx);
    if (!row?.secret_key_sealed) throw new ApiError(400, 'PAYMENT_PROVIDER_IS_NOT_AVAILABLE_ON_SITE', 'Stripe has no keys on this site');
    const at = new Date(row.updated_at).getTime();
    const cached = this.stripes.get(ctx.siteId);
    if (cached && cached.at === at) return cached.provider;
    const provider = stripeProvider({ secretKey: decryptSecret(this.options.keyring, row.secret_key_sealed), webhookSecret: row.webhook_secret_sealed ? decryptSecret(this.options.keyring, row.webhook_secret_sealed) : null }, this.options.stripeApi);
    this.stripes.set(ctx.siteId, { at, provider });
    return provider;
  }

  async testConnection(ctx: RequestContext): Promise<{ ok: boolean; message: string; reason?: ProviderFailure }> {
    const settings = await this.settings(ctx);
    try {
      await (await this.provider(ctx, settings.provider)).testConnection();
      return { ok: true, message: `${settings.provider === 'stripe' ? 'Stripe' : 'The test provider'} accepted the keys.` };
    } catch (error) {
      if (error instanceof ProviderError) return { ok: false, message: error.message, reason: error.failure };
      if (error instanceof ApiError) return { ok: false, message: error.message };
      throw error;
    }
  }

  // Attempts ---------------------------------------------------------------------------------------

  /**
   * The attempt to use for paying a checkout now: the open one (same amount and token) or a new
   * one whose number, and so idempotency key, follows the last.
   */
  async attemptFor(tx: SiteContext, input: { checkoutId: string; provider: string; token: string; amount: bigint; currency: string; delayCapture: boolean }): Promise<store.Attempt> {
    const last = await store.latestAttempt(tx, input.checkoutId);
    // An attempt that already paid the order is done: a balance left after an edit is a new payment.
    const open = last && !last.orderId && (last.status === 'STARTED' || last.status === 'REQUIRES_ACTION' || last.status === 'PENDING' || last.status === 'APPROVED' || last.status === 'AUTHORIZED');
    if (last && open && (last.status !== 'STARTED' || (last.amount === input.amount && last.token === input.token && last.provider === input.provider))) return last;
    const number = (last?.number ?? 0) + 1;
    const at = tx.now();
    const attempt: store.Attempt = {
      siteId: tx.siteId,
      id: newId(),
      checkoutId: input.checkoutId,
      number,
      provider: input.provider,
      idempotencyKey: `bodega-checkout-${input.checkoutId}-${number}`,
      token: input.token,
      amount: input.amount,
      currency: input.currency,
      delayCapture: input.delayCapture,
      status: 'STARTED',
      providerIntentId: null,
      orderId: null,
      failure: null,
      createdAt: at,
      updatedAt: at,
    };
    await store.insertAttempt(tx, attempt);
    return attempt;
  }

  lockAttempt(tx: SiteContext, attemptId: string): Promise<store.Attempt | undefined> {
    return store.findAttempt(tx, attemptId, true);
  }

  attemptByIntent(ctx: SiteContext, provider: string, intentId: string): Promise<store.Attempt | undefined> {
    return store.findAttemptByIntent(ctx, provider, intentId);
  }

  attemptOfCheckout(ctx: SiteContext, checkoutId: string, intentId: string): Promise<store.Attempt | undefined> {
    return store.findAttemptOfCheckout(ctx, checkoutId, intentId);
  }

  async saveAttempt(tx: SiteContext, attempt: store.Attempt): Promise<void> {
    await store.updateAttempt(tx, { ...attempt, updatedAt: tx.now() });
  }

  getAttempt(ctx: SiteContext, attemptId: string): Promise<store.Attempt | undefined> {
    return store.findAttempt(ctx, attemptId);
  }

  /** Settles an attempt's status (a webhook or the sweep heard the provider's decision). */
  async markAttempt(ctx: SiteContext, attemptId: string, status: store.AttemptStatus, failure?: string): Promise<void> {
    const attempt = await store.findAttempt(ctx, attemptId);
    if (attempt) await store.updateAttempt(ctx, { ...attempt, status, failure: failure ?? attempt.failure, updatedAt: ctx.now() });
  }

  /** Attempts the sweep should look at again: untouched for `olderThanMs`. */
  openAttempts(olderThanMs: number, siteIds: readonly string[] | null = null, limit = 100): Promise<store.Attempt[]> {
    return store.openAttempts(poolContext(this.db), new Date(this.options.now().getTime() - olderThanMs), limit, siteIds);
  }

  // Transactions -----------------------------------------------------------------------------------

  async record(tx: SiteContext, t: Omit<store.Transaction, 'id' | 'createdAt'>): Promise<void> {
    await store.insertTransaction(tx, { ...t, id: newId(), createdAt: tx.now() });
  }

  async updateTransaction(tx: SiteContext, provider: string, providerTransactionId: string, status: string): Promise<void> {
    await store.updateTransactionStatus(tx, provider, providerTransactionId, status);
  }

  settleTransaction(tx: SiteContext, idempotencyKey: string, status: string, providerTransactionId: string | null = null, failure: string | null = null): Promise<void> {
    return store.settleTransaction(tx, idempotencyKey, status, providerTransactionId, failure);
  }

  /** Refunds the provider never answered, untouched for `olderThanMs` (the sweep sends them again). */
  unsettledRefunds(olderThanMs: number, siteIds: readonly string[] | null = null, limit = 100): Promise<{ siteId: string; orderId: string; idempotencyKey: string }[]> {
    return store.unsettledRefunds(poolContext(this.db), new Date(this.options.now().getTime() - olderThanMs), limit, siteIds);
  }

  transactions(ctx: SiteContext, orderId: string): Promise<store.Transaction[]> {
    return store.transactionsOf(ctx, orderId);
  }
}
