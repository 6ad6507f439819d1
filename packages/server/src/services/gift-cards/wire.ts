// Gift cards on the wire: on a checkout as @wix/ecom shows them (`giftCard`, the price summary's
// total after gift cards), and the cards themselves for the balance page, the account and the back office.
import { formatAmount, toWireMoney, type WireMoney } from '../../platform/money.js';
import { groupCode, obfuscateCode } from './code.js';
import type { GiftCard, LedgerEntry } from './store.js';

/** One card on a checkout: what it pays now (or why nothing). */
export interface AppliedGiftCard {
  giftCardId: string;
  obfuscatedCode: string;
  amount: bigint;
  error?: { code: string; description: string };
}

/** Bodega's own app id for the gift cards it issues (the wire's `giftCard.appId`). */
export const GIFT_CARDS_APP_ID = 'b0de9a00-9f7c-4c1e-8a11-6c0f7a9e3b21';

/**
 * The checkout's gift-card fields: `giftCard` (the first card, as Wix holds one), `giftCards`
 * (all of them, Bodega's addition), and the price summary whose total is what is left after them.
 */
export function checkoutGiftCardFields<S extends { total: WireMoney }>(cards: readonly AppliedGiftCard[], summary: S, total: bigint, currency: string) {
  const paid = cards.reduce((sum, c) => sum + c.amount, 0n);
  const wireCards = cards.map((c) => ({
    id: c.giftCardId,
    obfuscatedCode: c.obfuscatedCode,
    amount: toWireMoney(c.amount, currency),
    appId: GIFT_CARDS_APP_ID,
    ...(c.error && { error: { applicationError: c.error } }),
  }));
  const after = { ...summary, total: toWireMoney(total - paid, currency) };
  const problem = cards.find((c) => c.error);
  return {
    ...(wireCards[0] && { giftCard: wireCards[0] }),
    giftCards: wireCards,
    priceSummary: after,
    ...(paid > 0n && { giftCardsTotal: toWireMoney(paid, currency) }),
    ...(problem?.error && { giftCardCalculationError: { applicationError: problem.error } }),
  };
}

export function toWireGiftCard(card: GiftCard, options: { showCode: boolean }) {
  return {
    id: card.id,
    ...(options.showCode ? { code: groupCode(card.code) } : {}),
    obfuscatedCode: obfuscateCode(card.code),
    initialValue: toWireMoney(card.initialAmount, card.currency),
    balance: toWireMoney(card.balance, card.currency),
    currency: card.currency,
    status: card.status,
    expired: card.expiresAt !== null && card.expiresAt <= new Date(),
    ...(card.expiresAt && { expirationDate: card.expiresAt.toISOString() }),
    source: card.source,
    ...(card.orderId && { orderId: card.orderId }),
    ...(card.recipientName && { recipientName: card.recipientName }),
    ...(card.recipientEmail && { recipientEmail: card.recipientEmail }),
    ...(card.message && { message: card.message }),
    ...(card.deliverAt && { deliveryDate: card.deliverAt.toISOString() }),
    ...(card.buyerEmail && { buyerEmail: card.buyerEmail }),
    ...(card.note && { note: card.note }),
    createdDate: card.createdDate.toISOString(),
    updatedDate: card.updatedDate.toISOString(),
  };
}

export function toWireLedgerEntry(e: LedgerEntry, currency: string) {
  return {
    id: e.id,
    type: e.kind,
    amount: formatAmount(e.amount < 0n ? -e.amount : e.amount, currency),
    direction: e.amount < 0n ? ('DEBIT' as const) : ('CREDIT' as const),
    balanceAfter: formatAmount(e.balanceAfter, currency),
    ...(e.orderId && { orderId: e.orderId }),
    ...(e.checkoutId && { checkoutId: e.checkoutId }),
    ...(e.reason && { reason: e.reason }),
    ...(e.actor && { actorId: e.actor }),
    createdDate: e.createdDate.toISOString(),
  };
}
