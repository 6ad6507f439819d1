// The `test` provider: for the demo store and the tests. The token (or a Stripe-style test card
// number) decides the outcome; intents live in this process's memory, keyed by idempotency key,
// so a repeated call answers the first call's intent as a real provider does.
import { randomUUID } from 'node:crypto';
import { ProviderError, type AuthorizeRequest, type IntentStatus, type MoneyMove, type PaymentProvider, type ProviderEvent, type ProviderIntent } from './provider.js';

/** The scripted outcomes, by token; each also answers to a test card number. */
export const TEST_TOKENS = {
  approve: 'tok_test_ok',
  decline: 'tok_test_decline',
  /** 3-D Secure: the first answer asks for the challenge; looked up again, the shopper passed it. */
  requireAction: 'tok_test_3ds',
  /** 3-D Secure that the shopper fails. */
  requireActionFails: 'tok_test_3ds_fail',
  /** Stays PENDING until the provider decides (settleTestIntent). */
  pending: 'tok_test_pending',
  /** Authorizes, but every capture fails. */
  failOnCapture: 'tok_test_capture_fail',
  /** Approved, but the provider refuses refunds of it. */
  noRefunds: 'tok_test_no_refunds',
  /** The provider does not answer. */
  down: 'tok_test_down',
} as const;

const CARDS: Record<string, string> = {
  '4242424242424242': TEST_TOKENS.approve,
  '4000000000000002': TEST_TOKENS.decline,
  '4000002760003184': TEST_TOKENS.requireAction,
  '4000008260003178': TEST_TOKENS.requireActionFails,
  '4000000000000077': TEST_TOKENS.pending,
  '4000000000000119': TEST_TOKENS.down,
};

interface TestIntent extends ProviderIntent {
  token: string;
  capture: AuthorizeRequest['capture'];
  captured: bigint;
  refunded: bigint;
  moves: Map<string, MoneyMove>;
}

const intents = new Map<string, TestIntent>();
const byKey = new Map<string, string>();

function snapshot(intent: TestIntent): ProviderIntent {
  return {
    id: intent.id,
    status: intent.status,
    amount: intent.amount,
    currency: intent.currency,
    ...(intent.actionUrl && { actionUrl: intent.actionUrl }),
    ...(intent.failure && { failure: intent.failure }),
  };
}

function found(intentId: string): TestIntent {
  const intent = intents.get(intentId);
  if (!intent) throw new ProviderError('TRANSACTION_NOT_FOUND', `The test provider has no payment ${intentId}`);
  return intent;
}

/** Once per idempotency key: a repeated key answers the first result. */
function once(intent: TestIntent, key: string, move: () => MoneyMove): MoneyMove {
  const done = intent.moves.get(key);
  if (done) return done;
  const result = move();
  intent.moves.set(key, result);
  return result;
}

function settled(capture: AuthorizeRequest['capture']): IntentStatus {
  return capture === 'MANUAL' ? 'AUTHORIZED' : 'APPROVED';
}

/** Tests (and the demo) decide a PENDING test payment. */
export function settleTestIntent(intentId: string, status: 'APPROVED' | 'DECLINED'): void {
  const intent = found(intentId);
  intent.status = status === 'APPROVED' ? settled(intent.capture) : 'DECLINED';
  if (intent.status === 'APPROVED') intent.captured = intent.amount;
  if (status === 'DECLINED') intent.failure = 'The bank declined the payment after review (test).';
}

export const testPaymentProvider: PaymentProvider = {
  id: 'test',

  async authorize(request) {
    const known = byKey.get(request.idempotencyKey);
    if (known) return snapshot(found(known));
    const token = CARDS[request.token.replace(/[\s-]/g, '')] ?? request.token;
    if (token === TEST_TOKENS.down) throw new ProviderError('PROVIDER_IS_DOWN', 'The test provider did not answer (test token).');
    if (!(Object.values(TEST_TOKENS) as string[]).includes(token)) {
      throw new ProviderError('INVALID', `The test payment provider takes ${Object.values(TEST_TOKENS).map((t) => `"${t}"`).join(', ')} or a test card number`);
    }
    const id = `test_pi_${randomUUID()}`;
    let status: IntentStatus = settled(request.capture);
    let failure: string | undefined;
    if (token === TEST_TOKENS.decline) [status, failure] = ['DECLINED', 'The card was declined (test token).'];
    if (token === TEST_TOKENS.requireAction || token === TEST_TOKENS.requireActionFails) status = 'REQUIRES_ACTION';
    if (token === TEST_TOKENS.pending) status = 'PENDING';
    if (token === TEST_TOKENS.failOnCapture && request.capture === 'AUTOMATIC') [status, failure] = ['DECLINED', 'The capture failed (test token).'];
    const separator = request.returnUrl.includes('?') ? '&' : '?';
    const intent: TestIntent = {
      id, status, amount: request.amount, currency: request.currency, token, capture: request.capture,
      captured: status === 'APPROVED' ? request.amount : 0n, refunded: 0n, moves: new Map(),
      ...(failure && { failure }),
      ...(status === 'REQUIRES_ACTION' && { actionUrl: `${request.returnUrl}${separator}payment_intent=${id}` }),
    };
    intents.set(id, intent);
    byKey.set(request.idempotencyKey, id);
    return snapshot(intent);
  },

  async lookup(ref) {
    const id = 'intentId' in ref ? ref.intentId : byKey.get(ref.request.idempotencyKey);
    const intent = id ? intents.get(id) : undefined;
    if (!intent) return null;
    if (intent.status === 'REQUIRES_ACTION') {
      // The shopper came back from the challenge: passed it, or not.
      if (intent.token === TEST_TOKENS.requireActionFails) {
        intent.status = 'DECLINED';
        intent.failure = 'The 3-D Secure check failed (test token).';
      } else {
        intent.status = settled(intent.capture);
        if (intent.status === 'APPROVED') intent.captured = intent.amount;
      }
      delete intent.actionUrl;
    }
    return snapshot(intent);
  },

  async capture(intentId, amount, key) {
    const intent = found(intentId);
    return once(intent, key, () => {
      if (intent.status !== 'AUTHORIZED') throw new ProviderError('INVALID', `Payment ${intentId} is ${intent.status}, not authorized`);
      if (intent.token === TEST_TOKENS.failOnCapture) return { providerId: `test_cap_${randomUUID()}`, status: 'FAILED', failure: 'The capture failed (test token).' };
      if (amount > intent.amount) throw new ProviderError('INVALID', 'The capture is more than was authorized');
      intent.captured = amount;
      intent.status = 'APPROVED';
      return { providerId: `test_cap_${randomUUID()}`, status: 'SUCCEEDED' };
    });
  },

  async void(intentId, key) {
    const intent = found(intentId);
    return once(intent, key, () => {
      if (intent.status !== 'AUTHORIZED') throw new ProviderError('INVALID', `Payment ${intentId} is ${intent.status}, not authorized`);
      intent.status = 'VOIDED';
      return { providerId: `test_void_${randomUUID()}`, status: 'SUCCEEDED' };
    });
  },

  async refund(intentId, amount, key) {
    const intent = found(intentId);
    return once(intent, key, () => {
      if (intent.token === TEST_TOKENS.noRefunds) throw new ProviderError('DISABLED_BY_PROVIDER', 'The provider does not refund this payment (test token).');
      if (intent.status !== 'APPROVED') throw new ProviderError('INVALID', `Payment ${intentId} is ${intent.status}, not captured`);
      if (intent.refunded + amount > intent.captured) throw new ProviderError('INVALID', 'The refund is more than was captured');
      intent.refunded += amount;
      return { providerId: `test_re_${randomUUID()}`, status: 'SUCCEEDED' };
    });
  },

  parseWebhook(): ProviderEvent {
    throw new ProviderError('INVALID', 'The test provider sends no webhooks');
  },

  async testConnection() {},
};
