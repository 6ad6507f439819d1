// Payment providers: what create-order-and-charge calls to take the money. Bodega ships one, `test`,
// whose tokens decide the outcome; a real provider implements the same interface.
import { ApiError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';

export interface ChargeRequest {
  siteId: string;
  orderId: string;
  /** Minor units of the currency. */
  amount: bigint;
  currency: string;
  /** What the storefront's payment form produced. */
  token: string;
}

export type ChargeResult =
  | { status: 'APPROVED'; transactionId: string }
  | { status: 'DECLINED'; transactionId: string; reason: string };

export interface PaymentProvider {
  readonly id: string;
  /** Charges the amount; throws an ApiError for a token it cannot use at all. */
  charge(request: ChargeRequest): Promise<ChargeResult>;
}

export const TEST_TOKEN_APPROVED = 'tok_test_ok';
export const TEST_TOKEN_DECLINED = 'tok_test_decline';

/** `tok_test_ok` is approved, `tok_test_decline` declined; any other token is refused. */
export const testPaymentProvider: PaymentProvider = {
  id: 'test',
  async charge(request) {
    const transactionId = `test_${newId()}`;
    if (request.token === TEST_TOKEN_APPROVED) return { status: 'APPROVED', transactionId };
    if (request.token === TEST_TOKEN_DECLINED) return { status: 'DECLINED', transactionId, reason: 'The card was declined (test token).' };
    throw new ApiError(400, 'INVALID_PAYMENT_TOKEN', `The test payment provider accepts "${TEST_TOKEN_APPROVED}" and "${TEST_TOKEN_DECLINED}"`);
  },
};
