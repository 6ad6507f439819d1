// Gift cards (issue 30): issued when an order buying one is paid (or by hand in the back office),
// spent at checkout, given back by a refund. A balance moves only with a ledger row in the same
// transaction, under the card's row lock; the balance column cannot go below zero.
import type { RequestContext } from '../../platform/caller.js';
import { withTransaction, type SiteContext } from '../../platform/context.js';
import { ApiError } from '../../platform/errors.js';
import { recordAudit } from '../../platform/audit.js';
import { newId } from '../../platform/ids.js';
import type { Mail } from '../../platform/mail.js';
import { formatAmount } from '../../platform/money.js';
import type { Order } from '../orders/service.js';
import { codeProblem, newGiftCardCode, normalizeCode, obfuscateCode } from './code.js';
import { deliveryMails } from './mails.js';
import { MESSAGE_FIELD, parseRecipient, RECIPIENT_FIELD } from './recipient.js';
import * as store from './store.js';
import type { GiftCard, GiftCardSettings, LedgerEntry } from './store.js';

export type { GiftCard, GiftCardSettings, LedgerEntry } from './store.js';
export { checkoutGiftCardFields, type AppliedGiftCard } from './wire.js';
import type { AppliedGiftCard } from './wire.js';

/** How many cards one checkout takes. */
export const MAX_CARDS_PER_CHECKOUT = 5;
/** The most a card issued by hand may hold, in minor units (a typo guard, not a policy). */
export const MAX_MANUAL_AMOUNT = 10_000_000n;

export interface GiftCardMailer {
  /** Puts a mail in the stored outbox inside the caller's transaction, to go out at `notBefore` or now. */
  enqueue(tx: SiteContext, mail: Mail, notBefore?: Date): Promise<void>;
  shop(ctx: SiteContext): Promise<{ name: string; origin: string }>;
}


/** What a checkout took from each card, ready to become the order's payments. */
export interface GiftCardHold {
  giftCardId: string;
  obfuscatedCode: string;
  amount: bigint;
}

export interface ManualIssue {
  amount: bigint;
  currency: string;
  recipientName?: string;
  recipientEmail?: string;
  message?: string;
  expiresAt?: Date;
  note?: string;
}

/** Why a card cannot pay now, in words; undefined when it can. */
export function unusable(card: GiftCard, currency: string, now: Date): ApiError | undefined {
  if (card.status === 'DISABLED') return new ApiError(400, 'GIFT_CARD_DISABLED', `Gift card ${obfuscateCode(card.code)} was disabled by the shop and cannot be used`, { obfuscatedCode: obfuscateCode(card.code) });
  if (card.expiresAt && card.expiresAt <= now) {
    return new ApiError(400, 'GIFT_CARD_EXPIRED', `Gift card ${obfuscateCode(card.code)} expired on ${card.expiresAt.toISOString().slice(0, 10)}`, { obfuscatedCode: obfuscateCode(card.code), expirationDate: card.expiresAt.toISOString() });
  }
  if (card.currency !== currency) return new ApiError(400, 'GIFT_CARD_CURRENCY_MISMATCH', `Gift card ${obfuscateCode(card.code)} is in ${card.currency}, this checkout in ${currency}`);
  return undefined;
}

/** The card a typed code names; a typo is refused before the lookup. */
async function cardOfCode(ctx: SiteContext, typed: string): Promise<GiftCard> {
  const code = normalizeCode(typed);
  const problem = codeProblem(code);
  if (problem) {
    const words = problem === 'LENGTH' ? 'A gift card code has 16 letters and digits'
      : problem === 'SYMBOL' ? 'A gift card code has only letters and digits (no I, L, O or U)'
      : 'This gift card code has a typo: please check each character';
    throw new ApiError(400, 'GIFT_CARD_CODE_INVALID', words, { reason: problem });
  }
  const card = await store.findCardByCode(ctx, code);
  if (!card) throw ApiError.notFound('GIFT_CARD_NOT_FOUND', 'No gift card has this code');
  return card;
}

function cardNotFound(id: string): ApiError {
  return ApiError.notFound('GIFT_CARD_NOT_FOUND', `Gift card ${id} was not found`, { giftCardId: id });
}

function addMonths(at: Date, months: number): Date {
  const d = new Date(at);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d;
}

/** What the shopper wrote on a gift-card line (the product's custom text fields), by field name. */
function lineField(line: Order['lines'][number], name: string): string | undefined {
  const found = line.descriptionLines.find((d) => 'value' in d && String(d.name).toLowerCase() === name.toLowerCase());
  const value = found && 'value' in found ? String(found.value).trim() : '';
  return value === '' ? undefined : value;
}

function deliveryDate(text: string | undefined, now: Date): Date | null {
  if (!text) return null;
  const at = new Date(`${text}T00:00:00.000Z`);
  return Number.isNaN(at.getTime()) || at <= now ? null : at;
}

export class GiftCardsService {
  private mailer: GiftCardMailer | undefined;

  /** Mail is wired after the commerce services are built (app-modules.ts). */
  useMailer(mailer: GiftCardMailer): void {
    this.mailer = mailer;
  }

  // Shoppers -------------------------------------------------------------------------------------

  async checkBalance(ctx: SiteContext, typed: string): Promise<GiftCard> {
    return cardOfCode(ctx, typed);
  }

  async myCards(ctx: RequestContext, buyer: { kind: string; id: string }): Promise<GiftCard[]> {
    return store.cardsOfBuyer(ctx, buyer);
  }

  // Checkout -------------------------------------------------------------------------------------

  /** Adds a card to a checkout (the caller holds the checkout's lock); an unusable card is refused in words. */
  async attach(tx: SiteContext, checkout: { id: string; currency: string }, typed: string): Promise<void> {
    const card = await cardOfCode(tx, typed);
    const problem = unusable(card, checkout.currency, tx.now());
    if (problem) throw problem;
    if (card.balance === 0n) throw new ApiError(400, 'GIFT_CARD_EMPTY', `Gift card ${obfuscateCode(card.code)} has no balance left`);
    const on = await store.checkoutCards(tx, checkout.id);
    if (on.some((c) => c.card.id === card.id)) return;
    if (on.length >= MAX_CARDS_PER_CHECKOUT) throw new ApiError(400, 'TOO_MANY_GIFT_CARDS', `A checkout takes at most ${MAX_CARDS_PER_CHECKOUT} gift cards`);
    await store.addCheckoutCard(tx, checkout.id, card.id);
  }

  /** Takes a card (or all of them) off a checkout, giving back what the checkout held of it. */
  async detach(tx: SiteContext, checkoutId: string): Promise<void> {
    await this.release(tx, checkoutId, 'Removed from the checkout');
    await store.removeCheckoutCards(tx, checkoutId);
  }

  /**
   * Gives back what a checkout holds of its cards, the cards staying on it (a declined payment:
   * the balance is the card's again until the shopper pays, when `hold` takes it anew).
   */
  async release(tx: SiteContext, checkoutId: string, reason: string): Promise<void> {
    const on = await store.checkoutCards(tx, checkoutId);
    if (!on.some((c) => c.held > 0n)) return;
    const locked = await store.lockCards(tx, on.map((c) => c.card.id));
    for (const { card, held } of on) {
      const current = locked.get(card.id);
      if (current && held > 0n) await this.move(tx, current, { kind: 'RELEASE', amount: held, checkoutId, orderId: null, reason, actor: null });
    }
  }

  /** What each card on the checkout would pay of `total` now (read only: the checkout's page). */
  async quote(ctx: SiteContext, checkoutId: string, currency: string, total: bigint): Promise<AppliedGiftCard[]> {
    const on = await store.checkoutCards(ctx, checkoutId);
    let remaining = total;
    return on.map(({ card, held }) => {
      const problem = unusable(card, currency, ctx.now());
      const amount = problem ? 0n : min(remaining, card.balance + held);
      remaining -= amount;
      return { giftCardId: card.id, obfuscatedCode: obfuscateCode(card.code), amount, ...(problem && { error: { code: problem.code, description: problem.message } }) };
    });
  }

  /**
   * Takes from the checkout's cards what they pay of `total`, under each card's row lock, in the
   * checkout's transaction: a hold is a REDEEM row with the checkout's id (RELEASE gives some back
   * when the total fell). Idempotent: called again, it moves only the difference.
   */
  async hold(tx: SiteContext, checkoutId: string, currency: string, total: bigint): Promise<GiftCardHold[]> {
    const on = await store.checkoutCards(tx, checkoutId);
    if (on.length === 0) return [];
    const locked = await store.lockCards(tx, on.map((c) => c.card.id));
    let remaining = total;
    const holds: GiftCardHold[] = [];
    for (const { card: seen, held } of on) {
      const card = locked.get(seen.id) ?? seen;
      const problem = unusable(card, currency, tx.now());
      if (problem && held === 0n) throw problem;
      const want = problem ? min(remaining, held) : min(remaining, card.balance + held);
      remaining -= want;
      const delta = want - held;
      if (delta > 0n) await this.move(tx, card, { kind: 'REDEEM', amount: -delta, checkoutId, orderId: null, reason: null, actor: null });
      if (delta < 0n) await this.move(tx, card, { kind: 'RELEASE', amount: -delta, checkoutId, orderId: null, reason: 'The checkout total fell', actor: null });
      if (want > 0n) holds.push({ giftCardId: card.id, obfuscatedCode: obfuscateCode(card.code), amount: want });
    }
    return holds;
  }

  /** The checkout's holds are now its order's redemptions. */
  async completeCheckout(tx: SiteContext, checkoutId: string, orderId: string): Promise<void> {
    await store.attachOrder(tx, checkoutId, orderId);
  }

  // Orders ---------------------------------------------------------------------------------------

  /**
   * Issues the cards a paid order bought, once per unit (a unique index makes a second call a
   * no-op), with the recipient's mail held until the delivery date and the buyer's copy now.
   */
  async issueForPaidOrder(tx: SiteContext, order: Order): Promise<GiftCard[]> {
    const settings = await store.readSettings(tx);
    const lines = order.lines.filter((l) => l.productId && settings.productIds.includes(l.productId));
    const issued: GiftCard[] = [];
    const now = tx.now();
    for (const line of lines) {
      for (let i = 0; i < line.quantity; i++) {
        const recipient = parseRecipient(lineField(line, RECIPIENT_FIELD));
        const card: GiftCard = {
          id: newId(), code: newGiftCardCode(), currency: order.currency, initialAmount: line.price, balance: line.price, status: 'ACTIVE',
          expiresAt: settings.validityMonths ? addMonths(now, settings.validityMonths) : null, source: 'ORDER',
          orderId: order.id, lineItemId: line.id, lineIndex: i, buyer: order.buyer, buyerEmail: order.email,
          recipientName: recipient.name, recipientEmail: recipient.email,
          message: lineField(line, MESSAGE_FIELD) ?? null, deliverAt: deliveryDate(recipient.deliveryDate ?? undefined, now), note: null,
          createdDate: now, updatedDate: now,
        };
        if (card.initialAmount <= 0n || !(await store.insertCard(tx, card))) continue;
        await store.insertLedger(tx, { id: newId(), giftCardId: card.id, kind: 'ISSUE', amount: card.balance, balanceAfter: card.balance, checkoutId: null, orderId: order.id, reason: `Bought in order ${order.number}`, actor: null, createdDate: now });
        await this.mailCard(tx, card, order.email);
        issued.push(card);
      }
    }
    return issued;
  }

  /** A refund of a payment this card made: the amount goes back on the card. */
  async refundToCard(tx: SiteContext, input: { giftCardId: string; orderId: string; amount: bigint }): Promise<void> {
    const card = await store.findCard(tx, input.giftCardId, true);
    if (!card) throw cardNotFound(input.giftCardId);
    await this.move(tx, card, { kind: 'REFUND', amount: input.amount, checkoutId: null, orderId: input.orderId, reason: 'Order refunded', actor: null });
  }

  // Back office ----------------------------------------------------------------------------------

  async list(ctx: RequestContext, options: { search?: string; limit: number; offset: number }) {
    return store.listCards(ctx, options);
  }

  async get(ctx: RequestContext, id: string): Promise<{ card: GiftCard; ledger: LedgerEntry[] }> {
    const card = await store.findCard(ctx, id);
    if (!card) throw cardNotFound(id);
    return { card, ledger: await store.ledgerOf(ctx, id) };
  }

  async issue(ctx: RequestContext, input: ManualIssue): Promise<GiftCard> {
    if (input.amount <= 0n || input.amount > MAX_MANUAL_AMOUNT) {
      throw ApiError.validation([{ field: 'amount', rule: 'DECIMAL_LTE', description: `must be more than 0 and at most ${formatAmount(MAX_MANUAL_AMOUNT, input.currency)}` }]);
    }
    const now = ctx.now();
    if (input.expiresAt && input.expiresAt <= now) throw ApiError.validation([{ field: 'expirationDate', rule: 'VALIDATION', description: 'must be in the future' }]);
    const card: GiftCard = {
      id: newId(), code: newGiftCardCode(), currency: input.currency, initialAmount: input.amount, balance: input.amount, status: 'ACTIVE',
      expiresAt: input.expiresAt ?? null, source: 'MANUAL', orderId: null, lineItemId: null, lineIndex: null, buyer: null, buyerEmail: null,
      recipientName: input.recipientName ?? null, recipientEmail: input.recipientEmail ?? null, message: input.message ?? null, deliverAt: null,
      note: input.note ?? null, createdDate: now, updatedDate: now,
    };
    return withTransaction(ctx, async (tx) => {
      await store.insertCard(tx, card);
      await store.insertLedger(tx, { id: newId(), giftCardId: card.id, kind: 'ISSUE', amount: card.balance, balanceAfter: card.balance, checkoutId: null, orderId: null, reason: input.note ?? 'Issued by hand', actor: ctx.caller.subjectId, createdDate: now });
      await this.mailCard(tx, card, null);
      await recordAudit(tx, { action: 'gift_card.issued', objectType: 'gift_card', objectId: card.id, after: { amount: formatAmount(card.initialAmount, card.currency), currency: card.currency, ...(input.note && { note: input.note }) } });
      return card;
    });
  }

  /** Moves a balance by hand (positive or negative) with a reason; never below zero. */
  async adjust(ctx: RequestContext, id: string, amount: bigint, reason: string): Promise<GiftCard> {
    if (amount === 0n) throw ApiError.validation([{ field: 'amount', rule: 'VALIDATION', description: 'must not be zero' }]);
    return withTransaction(ctx, async (tx) => {
      const card = await store.findCard(tx, id, true);
      if (!card) throw cardNotFound(id);
      if (card.balance + amount < 0n) {
        throw new ApiError(400, 'GIFT_CARD_BALANCE_TOO_LOW', `The balance is ${formatAmount(card.balance, card.currency)}; it cannot go below zero`, { balance: formatAmount(card.balance, card.currency) });
      }
      if (card.balance + amount > MAX_MANUAL_AMOUNT) throw ApiError.validation([{ field: 'amount', rule: 'DECIMAL_LTE', description: 'the balance would be too large' }]);
      const next = await this.move(tx, card, { kind: 'ADJUST', amount, checkoutId: null, orderId: null, reason, actor: ctx.caller.subjectId });
      await recordAudit(tx, {
        action: 'gift_card.adjusted', objectType: 'gift_card', objectId: id,
        before: { balance: formatAmount(card.balance, card.currency) }, after: { balance: formatAmount(next.balance, card.currency), reason },
      });
      return next;
    });
  }

  async setStatus(ctx: RequestContext, id: string, status: GiftCard['status']): Promise<GiftCard> {
    return withTransaction(ctx, async (tx) => {
      const card = await store.findCard(tx, id, true);
      if (!card) throw cardNotFound(id);
      if (card.status === status) return card;
      const next = { ...card, status, updatedDate: tx.now() };
      await store.updateCard(tx, next);
      await recordAudit(tx, { action: status === 'DISABLED' ? 'gift_card.disabled' : 'gift_card.enabled', objectType: 'gift_card', objectId: id, before: { status: card.status }, after: { status } });
      return next;
    });
  }

  async settings(ctx: SiteContext): Promise<GiftCardSettings> {
    return store.readSettings(ctx);
  }

  async updateSettings(ctx: RequestContext, settings: GiftCardSettings): Promise<GiftCardSettings> {
    if (settings.minCustomAmount !== null && settings.maxCustomAmount !== null && settings.minCustomAmount > settings.maxCustomAmount) {
      throw ApiError.validation([{ field: 'maxCustomAmount', rule: 'VALIDATION', description: 'must not be less than minCustomAmount' }]);
    }
    return withTransaction(ctx, async (tx) => {
      const before = await store.readSettings(tx);
      await store.writeSettings(tx, settings);
      await recordAudit(tx, { action: 'gift_card.settings_changed', objectType: 'gift_card_settings', objectId: tx.siteId, before: { productIds: before.productIds, validityMonths: before.validityMonths }, after: { productIds: settings.productIds, validityMonths: settings.validityMonths } });
      return settings;
    });
  }

  // ----------------------------------------------------------------------------------------------

  /** One ledger row and the balance it leaves (the caller holds the card's lock). */
  private async move(tx: SiteContext, card: GiftCard, entry: Omit<LedgerEntry, 'id' | 'giftCardId' | 'balanceAfter' | 'createdDate'>): Promise<GiftCard> {
    const now = tx.now();
    const next = { ...card, balance: card.balance + entry.amount, updatedDate: now };
    await store.insertLedger(tx, { ...entry, id: newId(), giftCardId: card.id, balanceAfter: next.balance, createdDate: now });
    await store.updateCard(tx, next);
    card.balance = next.balance;
    return next;
  }

  private async mailCard(tx: SiteContext, card: GiftCard, buyerEmail: string | null): Promise<void> {
    if (!this.mailer) return;
    const shop = await this.mailer.shop(tx);
    for (const mail of deliveryMails(tx.siteId, card, buyerEmail, shop)) await this.mailer.enqueue(tx, mail.mail, mail.notBefore);
  }
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}
