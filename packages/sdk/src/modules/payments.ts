/**
 * Payments: what a site offers at checkout (any caller), its provider settings (owner or API
 * key), and an order's money through the provider (the order-transactions, capture and void
 * calls of the eCommerce API).
 */
import { enc } from '../core/generated.js';
import type { Transport } from '../core/transport.js';
import type { CapturePolicy, ConnectionTest, OfflineMethod, PaymentOptions, PaymentProviderName, PaymentSettings } from '../generated/back-office.js';
import type { OrderTransactions } from '../generated/order-transactions.js';

const PREFIX = '/_api/bodega/v1';

export type { CapturePolicy, ConnectionTest, OfflineMethod, PaymentOptions, PaymentProviderName, PaymentSettings } from '../generated/back-office.js';
export type { OrderTransactions, TransactionPayment, TransactionRefund } from '../generated/order-transactions.js';

export interface PaymentSettingsPatch {
  provider?: PaymentProviderName;
  capturePolicy?: CapturePolicy;
  offlineMethods?: OfflineMethod[];
  publishableKey?: string | null;
  secretKey?: string;
  webhookSecret?: string;
}

/** Money on a payment link's page: always formatted. */
export interface LinkPrice { amount: string; formattedAmount: string }

export interface PaymentLink {
  orderPaymentRequest: { id: string; status: 'UNPAID' | 'PAID' | 'EXPIRED' | 'VOIDED'; orderId: string; orderNumber: string; amount: LinkPrice; currency: string; title: string; description?: string; expirationDate?: string };
  order: {
    id: string;
    number: string;
    paymentStatus: string;
    lineItems: { id: string; name: string; options: string[]; quantity: number; price: LinkPrice; total: LinkPrice }[];
    priceSummary: { subtotal: LinkPrice; discount: LinkPrice; shipping: LinkPrice; tax: LinkPrice; total: LinkPrice };
    paid: LinkPrice;
    balanceDue: LinkPrice;
  };
}

export function payments(t: Transport) {
  const send = <T>(method: 'GET' | 'POST' | 'PATCH', path: string, payload?: Record<string, unknown>) => t.send<T>({ method, path, ...(payload && { payload }) });
  const collector = (orderId: string) => `/ecom/v1/payments-collector/orders/${enc(orderId)}`;
  return {
    paymentOptions: () => send<PaymentOptions>('GET', `${PREFIX}/payment-options`),
    /** Back from the provider's page (3-D Secure): the server looks the payment up and places the order, or says why not. */
    paymentReturn: (checkoutId: string, paymentIntentId: string) => send<{ orderId: string }>('POST', `${PREFIX}/checkouts/${enc(checkoutId)}/payment-return`, { paymentIntentId }),
    /** A payment link's page: the request and the order it asks payment for (any token of the site, with the link). */
    paymentLink: (token: string) => send<PaymentLink>('GET', `${PREFIX}/payment-links/${enc(token)}`),
    /** Pays a payment link with the site's provider (a card token, as at checkout). */
    payPaymentLink: (token: string, paymentToken: string) => send<PaymentLink>('POST', `${PREFIX}/payment-links/${enc(token)}/pay`, { paymentToken }),
    getPaymentSettings: () => send<{ settings: PaymentSettings }>('GET', `${PREFIX}/payment-settings`),
    updatePaymentSettings: (settings: PaymentSettingsPatch) => send<{ settings: PaymentSettings }>('PATCH', `${PREFIX}/payment-settings`, { settings: { ...settings } }),
    testConnection: () => send<ConnectionTest>('POST', `${PREFIX}/payment-settings/test-connection`),
    listTransactions: (orderId: string) => send<{ orderTransactions: OrderTransactions }>('GET', `/ecom/v1/payments/orders/${enc(orderId)}`),
    captureAuthorizedPayments: (orderId: string, captures: { paymentId: string; amount?: { amount: string } }[]) =>
      send<{ orderTransactions: OrderTransactions }>('POST', `${collector(orderId)}/capture-authorized-payments`, { payments: captures }),
    voidAuthorizedPayments: (orderId: string, paymentIds: string[]) =>
      send<{ orderTransactions: OrderTransactions }>('POST', `${collector(orderId)}/void-authorized-payments`, { paymentIds }),
  };
}

export type PaymentsApi = ReturnType<typeof payments>;
