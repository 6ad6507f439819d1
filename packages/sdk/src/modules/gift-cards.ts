/**
 * Bodega's gift cards (`/bodega/v1/gift-cards`): the shop's balance check and a member's cards, and
 * the back office's list, issue, adjust, disable and settings. Money is a decimal string.
 */
import { enc } from '../core/generated.js';
import type { PlainObject } from '../core/query-string.js';
import type { Transport } from '../core/transport.js';

const P = '/bodega/v1/gift-cards';

export interface GiftCardMoney {
  amount: string;
  formattedAmount: string;
}

export interface GiftCard {
  id: string;
  /** `XXXX-XXXX-XXXX-XXXX`: for its owner and the back office, never on a balance check. */
  code?: string;
  obfuscatedCode: string;
  initialValue: GiftCardMoney;
  balance: GiftCardMoney;
  currency: string;
  status: 'ACTIVE' | 'DISABLED';
  expired: boolean;
  expirationDate?: string;
  source: 'ORDER' | 'MANUAL';
  orderId?: string;
  recipientName?: string;
  recipientEmail?: string;
  message?: string;
  deliveryDate?: string;
  buyerEmail?: string;
  note?: string;
  createdDate: string;
  updatedDate: string;
}

export interface GiftCardLedgerEntry {
  id: string;
  type: 'ISSUE' | 'REDEEM' | 'RELEASE' | 'REFUND' | 'ADJUST';
  amount: string;
  direction: 'DEBIT' | 'CREDIT';
  balanceAfter: string;
  orderId?: string;
  checkoutId?: string;
  reason?: string;
  actorId?: string;
  createdDate: string;
}

export type IssueGiftCardInput = {
  amount: string;
  recipientName?: string;
  recipientEmail?: string;
  message?: string;
  expirationDate?: string;
  note?: string;
};

export interface GiftCardSettings {
  productIds: string[];
  minCustomAmount: string | null;
  maxCustomAmount: string | null;
  validityMonths: number | null;
}

export interface GiftCardCustomAmounts {
  productIds: string[];
  currency: string;
  minCustomAmount: string | null;
  maxCustomAmount: string | null;
}

export function giftCards(t: Transport) {
  const send = <T>(method: 'GET' | 'POST' | 'PUT', path: string, payload?: PlainObject) =>
    t.send<T>({ method, path: `${P}${path}`, ...(payload && { payload }) });
  return {
    /** Any shopper: the balance of a code (rate-limited per address). */
    checkBalance: async (code: string) => (await send<{ giftCard: GiftCard }>('POST', '/check-balance', { code })).giftCard,
    /** Any shopper: the gift-card products and the custom amounts they take (null limits: off). */
    customAmounts: () => send<GiftCardCustomAmounts>('GET', '/custom-amounts'),
    /** A signed-in member's cards, with their codes. */
    myGiftCards: async () => (await send<{ giftCards: GiftCard[] }>('GET', '/my')).giftCards,

    list: (options: { search?: string; limit?: number; offset?: number } = {}) => {
      const params = new URLSearchParams();
      if (options.search) params.set('search', options.search);
      if (options.limit !== undefined) params.set('limit', String(options.limit));
      if (options.offset !== undefined) params.set('offset', String(options.offset));
      return t.send<{ giftCards: GiftCard[]; pagingMetadata: { count: number; offset: number; total: number } }>({ method: 'GET', path: P, query: params.toString() });
    },
    get: (id: string) => send<{ giftCard: GiftCard; ledger: GiftCardLedgerEntry[] }>('GET', `/${enc(id)}`),
    issue: async (input: IssueGiftCardInput) => (await send<{ giftCard: GiftCard }>('POST', '', input)).giftCard,
    /** `amount` may be negative ("-5.00"); the reason is kept in the ledger and the audit log. */
    adjust: async (id: string, amount: string, reason: string) => (await send<{ giftCard: GiftCard }>('POST', `/${enc(id)}/adjust`, { amount, reason })).giftCard,
    disable: async (id: string) => (await send<{ giftCard: GiftCard }>('POST', `/${enc(id)}/disable`)).giftCard,
    enable: async (id: string) => (await send<{ giftCard: GiftCard }>('POST', `/${enc(id)}/enable`)).giftCard,
    settings: async () => (await send<{ settings: GiftCardSettings }>('GET', '/settings')).settings,
    updateSettings: async (settings: GiftCardSettings) =>
      (await send<{ settings: GiftCardSettings }>('PUT', '/settings', { ...settings })).settings,
  };
}

export type GiftCardsApi = ReturnType<typeof giftCards>;
