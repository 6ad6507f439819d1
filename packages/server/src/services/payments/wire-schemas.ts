// The answers of /_api/bodega/v1/payment-settings and payment-options: they write the wire,
// document it (openapi.json) and are the SDK's types (npm run gen:sdk-types).
import { Type } from 'typebox';
import { oneOf } from '../../platform/wire-schema.js';
import { CAPTURE_POLICIES, OFFLINE_METHODS, PROVIDERS } from './service.js';

export const PaymentProviderName = oneOf(PROVIDERS, { title: 'PaymentProviderName' });
export const CapturePolicy = oneOf(CAPTURE_POLICIES, { title: 'CapturePolicy' });
export const OfflineMethod = oneOf(OFFLINE_METHODS, { title: 'OfflineMethod' });
const StringOrNull = Type.Unsafe<string | null>({ type: ['string', 'null'] });

export const PaymentSettings = Type.Object({
  provider: PaymentProviderName,
  capturePolicy: CapturePolicy,
  offlineMethods: Type.Array(OfflineMethod),
  publishableKey: StringOrNull,
  secretKeyHint: { ...StringOrNull, description: "The secret key's kind and last four characters: the key itself is never shown again." },
  webhookSecretSet: Type.Boolean(),
  webhookUrl: Type.String({ description: "Where to point the provider's webhooks." }),
}, { title: 'PaymentSettings' });
export const PaymentSettingsAnswer = Type.Object({ settings: PaymentSettings });

export const PaymentOptions = Type.Object({
  provider: PaymentProviderName,
  publishableKey: StringOrNull,
  offlineMethods: Type.Array(OfflineMethod),
}, { title: 'PaymentOptions', description: "What the storefront's payment step offers: never a secret." });

export const ConnectionTest = Type.Object({
  ok: Type.Boolean(),
  message: Type.String(),
  reason: Type.Optional(oneOf([
    'PROVIDER_IS_DOWN', 'ACCESS_DENIED', 'FORBIDDEN', 'TRANSACTION_NOT_FOUND', 'DISABLED_BY_PROVIDER', 'EXPIRED', 'INVALID', 'INTERNAL_ERROR',
  ] as const, { description: 'Why the provider refused, when it did.' })),
}, { title: 'ConnectionTest' });

/** The shopper's return from the provider's page: the order placed. */
export const PaymentReturn = Type.Object({ orderId: Type.String() }, { title: 'PaymentReturn' });

/** A provider's webhook, taken. */
export const WebhookReceived = Type.Object({ received: Type.Boolean() });
