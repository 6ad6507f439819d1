// Draft orders: an order the merchant builds (a phone order, a wholesale order) for a member or
// a customer known by e-mail. A draft is a checkout of the same id on the BACKOFFICE_MERCHANT
// channel, so its catalog lines, custom lines, discounts, shipping and tax are priced by the one
// pricing kernel every checkout uses, and committing it places the order exactly as checkout
// does (stock reserved under the products' row locks, the order number from the site's counter),
// in one transaction with the draft's DRAFT → COMMITTED change under the draft's row lock.
import { withTransaction } from '../../platform/context.js';
import type { RequestContext } from '../../platform/caller.js';
import { ApiError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { recordAudit } from '../../platform/audit.js';
import type { AddToCartInput } from '../cart/service.js';
import type { Buyer } from '../commerce/buyer.js';
import type { MerchantDiscount } from '../commerce/pricing/model.js';
import type { CheckoutPatch, CheckoutService, CheckoutView } from '../checkout/service.js';
import type { Order } from './model.js';
import type { OrdersService } from './service.js';
import { notEditable, revisionOf, type OrderEdits } from './order-edits.js';
import * as store from './draft-orders-store.js';
import type { DraftOrderRow, EditingStatus } from './draft-orders-store.js';

export type { DraftOrderRow, EditingStatus } from './draft-orders-store.js';

export const DRAFT_CHANNEL = 'BACKOFFICE_MERCHANT';
export const MAX_DRAFT_PAGE = 100;

export interface DraftOrderView {
  draft: DraftOrderRow;
  checkout: CheckoutView;
}

/** Who the order is for: a member of the site, or a customer known by e-mail only. */
export type DraftBuyer = { memberId: string; email?: string | null } | { email: string };

/** What a call changes on a draft (absent: unchanged). */
export interface DraftPatch {
  buyer?: DraftBuyer;
  add?: AddToCartInput;
  /** Replaces the draft's merchant discounts. */
  merchantDiscounts?: MerchantDiscount[];
  shippingDestination?: Record<string, unknown> | null;
  selectedShippingOption?: { code: string; carrierId?: string } | null;
  billingInfo?: Record<string, unknown> | null;
  buyerNote?: string | null;
}

function draftNotFound(id: string): ApiError {
  return ApiError.notFound('DRAFT_ORDER_NOT_FOUND', `Draft order ${id} was not found`, { draftOrderId: id });
}

function alreadyCommitted(draft: DraftOrderRow): ApiError {
  return new ApiError(400, 'DRAFT_ORDER_ALREADY_COMMITTED', `Draft order ${draft.id} already became order ${draft.orderId}; it cannot change`, { draftOrderId: draft.id, orderId: draft.orderId });
}

function buyerOf(buyer: DraftBuyer | undefined): Buyer {
  // A customer known by e-mail only shops as a new visitor of their own (the payment link is theirs).
  return buyer && 'memberId' in buyer ? { kind: 'member', id: buyer.memberId } : { kind: 'visitor', id: newId() };
}

function checkoutPatch(patch: DraftPatch): CheckoutPatch {
  const email = patch.buyer ? patch.buyer.email : undefined;
  return {
    ...(email !== undefined && { email }),
    ...(patch.add && { add: patch.add }),
    ...(patch.merchantDiscounts !== undefined && { merchantDiscounts: patch.merchantDiscounts }),
    ...(patch.shippingDestination !== undefined && { shippingDestination: patch.shippingDestination }),
    ...(patch.selectedShippingOption !== undefined && { selectedShippingOption: patch.selectedShippingOption }),
    ...(patch.billingInfo !== undefined && { billingInfo: patch.billingInfo }),
    ...(patch.buyerNote !== undefined && { buyerNote: patch.buyerNote }),
  };
}

export class DraftOrdersService {
  constructor(private readonly checkout: CheckoutService, private readonly orders: OrdersService, private readonly edits: OrderEdits) {}

  /** getOrderDraftabilityStatus: whether the order can be edited now, and why not. */
  async draftability(ctx: RequestContext, orderId: string): Promise<{ orderId: string; orderDraftable: boolean; nonDraftableReasons: string[] }> {
    const refused = notEditable(await this.orders.getOrder(ctx, orderId));
    return { orderId, orderDraftable: !refused, nonDraftableReasons: refused ? [refused.wixReason] : [] };
  }

  /** A draft of a placed order (an edit): its lines, shipping and discounts, to change and commit onto it. */
  async createEdit(ctx: RequestContext, orderId: string): Promise<DraftOrderView> {
    const order = await this.orders.getOrder(ctx, orderId);
    const refused = notEditable(order);
    if (refused) throw new ApiError(400, refused.code, refused.description, { orderId });
    return withTransaction(ctx, async (tx) => {
      const view = await this.checkout.copyForEdit(tx, order.checkoutId ?? '', DRAFT_CHANNEL, new Map(order.lines.map((l) => [l.id, l.quantity])));
      const now = tx.now();
      const draft: DraftOrderRow = {
        id: view.checkout.id, status: 'DRAFT', orderId: null, edits: { orderId, revision: revisionOf(order) },
        createdBy: { kind: tx.caller.kind, id: tx.caller.subjectId }, createdDate: now, updatedDate: now,
      };
      await store.insertDraft(tx, draft);
      await recordAudit(tx, { action: 'draft_order.created', objectType: 'draft_order', objectId: draft.id, after: { editsOrderId: orderId } });
      return { draft, checkout: view };
    });
  }

  async create(ctx: RequestContext, patch: DraftPatch): Promise<DraftOrderView> {
    return withTransaction(ctx, async (tx) => {
      const view = await this.checkout.createCheckout(tx, { channelType: DRAFT_CHANNEL, ...checkoutPatch(patch) }, buyerOf(patch.buyer));
      const now = tx.now();
      const draft: DraftOrderRow = { id: view.checkout.id, status: 'DRAFT', orderId: null, createdBy: { kind: tx.caller.kind, id: tx.caller.subjectId }, createdDate: now, updatedDate: now };
      await store.insertDraft(tx, draft);
      await recordAudit(tx, { action: 'draft_order.created', objectType: 'draft_order', objectId: draft.id, after: { lines: view.checkout.lines.length, total: view.priced.totals.total.toString() } });
      return { draft, checkout: view };
    });
  }

  async get(ctx: RequestContext, id: string): Promise<DraftOrderView> {
    const draft = await store.findDraft(ctx, id);
    if (!draft) throw draftNotFound(id);
    return { draft, checkout: await this.checkout.getCheckout(ctx, id) };
  }

  private async open(ctx: RequestContext, id: string): Promise<DraftOrderRow> {
    const draft = await store.findDraft(ctx, id);
    if (!draft) throw draftNotFound(id);
    if (draft.status !== 'DRAFT') throw alreadyCommitted(draft);
    return draft;
  }

  /** Changes a draft; a new customer (another member, or an e-mail instead of a member) may be set until it is committed. */
  async update(ctx: RequestContext, id: string, patch: DraftPatch): Promise<DraftOrderView> {
    const draft = await this.open(ctx, id);
    let buyer: Buyer | undefined;
    if (patch.buyer && draft.edits) throw new ApiError(400, 'BUYER_CHANGE_NOT_SUPPORTED', 'An edit keeps the order\'s buyer', { draftOrderId: id });
    if (patch.buyer) {
      const current = (await this.checkout.getCheckout(ctx, id)).checkout.buyer;
      const wanted = patch.buyer;
      const same = 'memberId' in wanted ? current.kind === 'member' && current.id === wanted.memberId : current.kind === 'visitor';
      if (!same) buyer = buyerOf(wanted);
    }
    return this.changed(ctx, draft, () => this.checkout.updateCheckout(ctx, id, { ...checkoutPatch(patch), ...(buyer && { buyer }) }));
  }

  async removeLines(ctx: RequestContext, id: string, lineItemIds: string[]): Promise<DraftOrderView> {
    const draft = await this.open(ctx, id);
    return this.changed(ctx, draft, () => this.checkout.removeLineItems(ctx, id, lineItemIds));
  }

  async setQuantities(ctx: RequestContext, id: string, changes: { id: string; quantity: number }[]): Promise<DraftOrderView> {
    const draft = await this.open(ctx, id);
    return this.changed(ctx, draft, () => this.checkout.updateLineItemsQuantity(ctx, id, changes));
  }

  private async changed(ctx: RequestContext, draft: DraftOrderRow, fn: () => Promise<CheckoutView>): Promise<DraftOrderView> {
    try {
      const view = await fn();
      const now = ctx.now();
      await store.touchDraft(ctx, draft.id, now);
      return { draft: { ...draft, updatedDate: now }, checkout: view };
    } catch (error) {
      // Committed meanwhile: the checkout says so in its own words; the draft's are the caller's.
      if (error instanceof ApiError && error.code === 'CHECKOUT_ALREADY_COMPLETED') throw alreadyCommitted((await store.findDraft(ctx, draft.id)) ?? draft);
      throw error;
    }
  }

  /**
   * Places the draft's order: under the draft's row lock, then the checkout's, so concurrent
   * commits make one order (the second answers it); stock is taken as checkout takes it, and an
   * order that would oversell is refused in the checkout's words (INSUFFICIENT_INVENTORY).
   */
  async commit(ctx: RequestContext, id: string): Promise<{ draft: DraftOrderView; order: Order }> {
    const draft = await withTransaction(ctx, async (tx) => {
      const locked = await store.findDraft(tx, id, true);
      if (!locked) throw draftNotFound(id);
      if (locked.status === 'COMMITTED') return locked;
      const orderId = locked.edits
        ? (await this.edits.apply(tx, id, locked.edits, await this.checkout.getCheckout(tx, id))).id
        : (await this.checkout.createOrder(tx, id, { kind: 'offline' })).orderId;
      const now = tx.now();
      await store.markCommitted(tx, id, orderId, now);
      await recordAudit(tx, { action: 'draft_order.committed', objectType: 'draft_order', objectId: id, after: { orderId, ...(locked.edits && { edited: true }) } });
      return { ...locked, status: 'COMMITTED' as const, orderId, updatedDate: now };
    });
    if (!draft.orderId) throw new Error('A committed draft has an order');
    const order = await this.orders.getOrder(ctx, draft.orderId);
    return { draft: { draft, checkout: await this.checkout.getCheckout(ctx, id) }, order };
  }

  async delete(ctx: RequestContext, id: string): Promise<void> {
    await withTransaction(ctx, async (tx) => {
      const draft = await store.findDraft(tx, id, true);
      if (!draft) throw draftNotFound(id);
      if (draft.status !== 'DRAFT') throw alreadyCommitted(draft);
      await store.deleteDraft(tx, id);
      await recordAudit(tx, { action: 'draft_order.deleted', objectType: 'draft_order', objectId: id });
    });
  }

  /** Newest first, a page at a time; the cursor is the last draft's id. */
  async query(ctx: RequestContext, input: { status?: EditingStatus; limit?: number; cursor?: string | null }): Promise<{ drafts: DraftOrderView[]; nextCursor: string | null }> {
    const limit = Math.min(Math.max(input.limit ?? 50, 1), MAX_DRAFT_PAGE);
    let after: DraftOrderRow | undefined;
    if (input.cursor) {
      after = await store.findDraft(ctx, input.cursor);
      if (!after) throw ApiError.validation([{ field: 'query.cursorPaging.cursor', rule: 'FORMAT', description: 'not a cursor of this list' }]);
    }
    const rows = await store.listDrafts(ctx, input.status ? { status: input.status } : {}, limit + 1, after);
    const page = rows.slice(0, limit);
    const drafts = await Promise.all(page.map(async (draft) => ({ draft, checkout: await this.checkout.getCheckout(ctx, draft.id) })));
    return { drafts, nextCursor: rows.length > limit ? page[page.length - 1].id : null };
  }
}
