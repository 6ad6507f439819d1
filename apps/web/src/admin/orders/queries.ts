import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CalculatedDraftOrder, CatalogLineItemInput, CustomLineItemInput, DraftDiscountInput, OrdersExportFilters, TransactionPayment } from '@bodega/sdk';
import { OWED_PAYMENT_STATUSES, refundWaits } from '../../domain/order.js';
import { useAdmin } from '../context.js';
import { adminKeys } from '../queries.js';

export const ORDERS_PAGE_SIZE = 25;

export const orderKeys = {
  all: adminKeys.orders(),
  lists: () => [...orderKeys.all, 'list'] as const,
  list: (filters: OrdersExportFilters, cursor: string | undefined) => [...orderKeys.lists(), filters, cursor ?? ''] as const,
  /** One order and what hangs off it (fulfilments, payments, transactions). */
  detail: (orderId: string) => [...orderKeys.all, 'detail', orderId] as const,
  fulfillments: (orderId: string) => [...orderKeys.detail(orderId), 'fulfillments'] as const,
  payments: (orderId: string) => [...orderKeys.detail(orderId), 'payments'] as const,
  transactions: (orderId: string) => [...orderKeys.detail(orderId), 'transactions'] as const,
};

/** The list's filters as the wire's order filter. */
export function orderFilter(f: OrdersExportFilters): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  // "Unpaid" is every order still owed money, as the dashboard and the export count it.
  if (f.paymentStatus === 'NOT_PAID') filter.paymentStatus = { $in: [...OWED_PAYMENT_STATUSES] };
  else if (f.paymentStatus) filter.paymentStatus = f.paymentStatus;
  if (f.fulfillmentStatus) filter.fulfillmentStatus = f.fulfillmentStatus;
  const created: Record<string, string> = {};
  if (f.from) created.$gte = new Date(`${f.from}T00:00:00`).toISOString();
  if (f.to) created.$lt = new Date(new Date(`${f.to}T00:00:00`).getTime() + 86_400_000).toISOString();
  if (Object.keys(created).length) filter.createdDate = created;
  const q = f.q?.trim();
  if (q) {
    if (/^\d+$/.test(q)) filter.number = Number(q);
    else filter['buyerInfo.email'] = q.toLowerCase();
  }
  return filter;
}

/** One cursor page of orders under the filters, newest first. */
export function useOrders(filters: OrdersExportFilters, cursor: string | undefined) {
  const { api } = useAdmin();
  return useQuery({
    queryKey: orderKeys.list(filters, cursor),
    placeholderData: keepPreviousData,
    queryFn: () => api.orders.searchOrders({
      filter: orderFilter(filters),
      sort: [{ fieldName: 'createdDate', order: 'DESC' }],
      cursorPaging: { limit: ORDERS_PAGE_SIZE, ...(cursor && { cursor }) },
    }),
  });
}

export function useOrder(orderId: string) {
  const { api } = useAdmin();
  return useQuery({ queryKey: orderKeys.detail(orderId), queryFn: () => api.orders.getOrder(orderId) });
}

export function useOrderFulfillments(orderId: string) {
  const { api } = useAdmin();
  return useQuery({
    queryKey: orderKeys.fulfillments(orderId),
    queryFn: async () => (await api.orderFulfillments.listFulfillmentsForSingleOrder(orderId)).orderWithFulfillments?.fulfillments ?? [],
  });
}

/** What is left to refund on the order, in total and per payment. */
export function useOrderPayments(orderId: string) {
  const { api } = useAdmin();
  return useQuery({ queryKey: orderKeys.payments(orderId), queryFn: () => api.backOffice.orderPayments(orderId) });
}

/** The order's payments and refunds as the payment provider reports them. */
export function useOrderTransactions(orderId: string) {
  const { api } = useAdmin();
  return useQuery({ queryKey: orderKeys.transactions(orderId), queryFn: async () => (await api.payments.listTransactions(orderId)).orderTransactions });
}

/** After a change to an order: the order itself at once, then the lists and the dashboard's figures. */
function useOrderChanged(orderId: string) {
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: orderKeys.detail(orderId) });
    void queryClient.invalidateQueries({ queryKey: orderKeys.lists() });
    void queryClient.invalidateQueries({ queryKey: adminKeys.dashboard() });
  };
}

export type OrderAction =
  | { kind: 'fulfil'; lineItems: { _id?: string; quantity?: number }[]; trackingInfo: { trackingNumber?: string; shippingProvider?: string; trackingLink?: string } }
  | { kind: 'mark-paid' }
  | { kind: 'record-payment'; amount: string }
  | { kind: 'cancel'; restock: boolean }
  | { kind: 'refund'; payments: { paymentId: string; amount: string }[]; reason: string };

/** What an action's answer says beyond "done": a refund the payment provider has not answered yet. */
export interface OrderActionOutcome { refundWaits?: boolean }

/** Fulfil, mark as paid, record a payment, cancel or refund the order. */
export function useOrderAction(orderId: string) {
  const { api } = useAdmin();
  const changed = useOrderChanged(orderId);
  return useMutation({
    mutationFn: async (action: OrderAction): Promise<OrderActionOutcome> => {
      switch (action.kind) {
        case 'fulfil':
          await api.orderFulfillments.createFulfillment(orderId, { lineItems: action.lineItems, trackingInfo: action.trackingInfo });
          return {};
        case 'mark-paid':
          await api.orders.paymentCollectionMarkOrderAsPaid(orderId);
          return {};
        case 'record-payment':
          await api.orders.recordManuallyCollectedPayment(orderId, { amount: action.amount });
          return {};
        case 'cancel':
          await api.orders.cancelOrder(orderId, { restockAllItems: action.restock });
          return {};
        case 'refund': {
          const answer = await api.orders.triggerRefund(orderId, action.payments.map((p) => ({ paymentId: p.paymentId, amount: { amount: p.amount } })), {
            ...(action.reason && { details: { reason: action.reason } }), sideEffects: { restockInfo: { type: 'NO_ITEMS' } },
          });
          return { refundWaits: refundWaits(answer) };
        }
      }
    },
    onSuccess: changed,
  });
}

export type PaymentAction = { kind: 'capture'; payment: TransactionPayment; amount: string } | { kind: 'void'; payment: TransactionPayment };

/**
 * Capture (all or part) or void a payment that is only authorized. A capture the provider
 * refuses comes back as a failed capture: that is an error here too. Answers the captured amount.
 */
export function usePaymentAction(orderId: string) {
  const { api } = useAdmin();
  const changed = useOrderChanged(orderId);
  return useMutation({
    mutationFn: async (action: PaymentAction): Promise<string | undefined> => {
      const p = action.payment;
      if (action.kind === 'void') {
        await api.payments.voidAuthorizedPayments(orderId, [p.id]);
        return undefined;
      }
      const amount = action.amount.trim();
      const res = await api.payments.captureAuthorizedPayments(orderId, [{ paymentId: p.id, ...(amount && amount !== p.amount.amount && { amount: { amount } }) }]);
      const last = res.orderTransactions.payments.find((x) => x.id === p.id)?.regularPaymentDetails.authorizationDetails?.captures.at(-1);
      if (last?.status === 'FAILED') throw new Error(last.failureDetails?.failureReason ?? 'The capture failed');
      return last?.amount.amount ?? amount;
    },
    onSuccess: changed,
  });
}

// Draft orders, edits, payment links and notes (issue 31) -------------------------------------------

export const draftKeys = {
  all: [...orderKeys.all, 'drafts'] as const,
  detail: (draftOrderId: string) => [...draftKeys.all, draftOrderId] as const,
  draftability: (orderId: string) => [...orderKeys.detail(orderId), 'draftability'] as const,
  paymentRequests: (orderId: string) => [...orderKeys.detail(orderId), 'payment-requests'] as const,
  products: (text: string) => [...orderKeys.all, 'product-picker', text] as const,
  members: (text: string) => [...orderKeys.all, 'member-picker', text] as const,
};

/** A draft order with its calculated totals and shipping options, as the server prices it. */
export function useDraftOrder(draftOrderId: string) {
  const { api } = useAdmin();
  return useQuery({
    queryKey: draftKeys.detail(draftOrderId),
    enabled: draftOrderId !== '',
    queryFn: async () => (await api.draftOrders.getDraftOrder(draftOrderId)).calculatedDraftOrder ?? {},
  });
}

export type DraftChange =
  | { kind: 'buyer'; buyerInfo: { memberId?: string; email?: string } }
  | { kind: 'add'; catalogLineItems?: CatalogLineItemInput[]; customLineItems?: CustomLineItemInput[] }
  | { kind: 'quantities'; lineItemChanges: { lineItemId: string; newQuantity: number }[] }
  | { kind: 'discount'; discount: DraftDiscountInput }
  | { kind: 'remove-discount'; discountId: string }
  | { kind: 'shipping'; shippingInfo: { code?: string | null; logistics?: { shippingDestination?: Record<string, unknown> | null } } };

/** Changes a draft; the answer (its new totals) replaces the cached draft. */
export function useDraftChange(draftOrderId: string) {
  const { api } = useAdmin();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (change: DraftChange): Promise<CalculatedDraftOrder> => {
      const d = api.draftOrders;
      const answer = await (() => {
        switch (change.kind) {
          case 'buyer': return d.setBuyerInfo(draftOrderId, { buyerInfo: change.buyerInfo });
          case 'add': return d.addLineItemsToDraftOrder(draftOrderId, { ...(change.catalogLineItems && { catalogLineItems: change.catalogLineItems }), ...(change.customLineItems && { customLineItems: change.customLineItems }) });
          case 'quantities': return d.updateLineItems(draftOrderId, { lineItemChanges: change.lineItemChanges });
          case 'discount': return d.createCustomDiscounts(draftOrderId, { discounts: [change.discount] });
          case 'remove-discount': return d.deleteCustomDiscounts(draftOrderId, { discountIds: [change.discountId] });
          case 'shipping': return d.setShippingInfo(draftOrderId, { shippingInfo: change.shippingInfo });
        }
      })();
      return answer.calculatedDraftOrder ?? {};
    },
    onSuccess: (calculated) => queryClient.setQueryData(draftKeys.detail(draftOrderId), calculated),
  });
}

/** A new draft for a customer (the first step of "New order"), or an edit of a placed order. */
export function useCreateDraft() {
  const { api } = useAdmin();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { buyerInfo: { memberId?: string; email?: string } } | { orderId: string }) => {
      const answer = 'orderId' in input ? await api.draftOrders.createDraftOrder({ orderId: input.orderId }) : await api.draftOrders.createDraftOrder({ draftOrder: { buyerInfo: input.buyerInfo } });
      const calculated = answer.calculatedDraftOrder ?? {};
      const id = calculated.draftOrder?._id ?? '';
      queryClient.setQueryData(draftKeys.detail(id), calculated);
      return id;
    },
  });
}

/** Commits a draft: a new order, or the edit applied to its order. Answers the order's id. */
export function useCommitDraft(draftOrderId: string) {
  const { api } = useAdmin();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await api.draftOrders.commitDraftOrder(draftOrderId)).orderAfterCommit?._id ?? '',
    onSuccess: async (orderId) => {
      queryClient.removeQueries({ queryKey: draftKeys.detail(draftOrderId) });
      await queryClient.invalidateQueries({ queryKey: orderKeys.detail(orderId) });
      void queryClient.invalidateQueries({ queryKey: orderKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: adminKeys.dashboard() });
    },
  });
}

/** Whether the order can be edited now, and why not. */
export function useDraftability(orderId: string) {
  const { api } = useAdmin();
  return useQuery({ queryKey: draftKeys.draftability(orderId), queryFn: () => api.draftOrders.getOrderDraftabilityStatus(orderId) });
}

/** Products for the order's product picker (the catalog search), with their variants. */
export function useProductPicker(text: string) {
  const { api } = useAdmin();
  return useQuery({
    queryKey: draftKeys.products(text),
    placeholderData: keepPreviousData,
    queryFn: async () => (await api.backOffice.queryProducts({ paging: { limit: 20 } }, text ? { text } : {})).products ?? [],
  });
}

/** Members for the customer picker, by name or e-mail. */
export function useMemberPicker(text: string) {
  const { api } = useAdmin();
  return useQuery({
    queryKey: draftKeys.members(text),
    enabled: text.trim().length > 1,
    queryFn: async () => (await api.members.queryMembers({ paging: { limit: 8 } }, { fieldsets: ['FULL'], search: { expression: text.trim() } })).members ?? [],
  });
}

/** The order's payment requests, newest first. */
export function usePaymentRequests(orderId: string) {
  const { api } = useAdmin();
  return useQuery({
    queryKey: draftKeys.paymentRequests(orderId),
    queryFn: async () => (await api.orderPaymentRequests.queryOrderPaymentRequests({ filter: { orderId } })).orderPaymentRequests ?? [],
  });
}

/** A payment link for the order's balance due: created, or e-mailed to the buyer. */
export function usePaymentLinkAction(orderId: string) {
  const { api } = useAdmin();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (action: { kind: 'create' } | { kind: 'send'; requestId: string }): Promise<{ url?: string; sentTo?: string }> => {
      if (action.kind === 'create') return { url: (await api.orderPaymentRequests.createOrderPaymentRequest({ orderPaymentRequest: { orderId } })).orderPaymentRequestUrl ?? '' };
      return { sentTo: (await api.orderPaymentRequests.sendOrderPaymentRequest(action.requestId)).to ?? '' };
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: draftKeys.paymentRequests(orderId) }),
  });
}

/** The link of a request (signed anew: it lasts from now). */
export function usePaymentLinkUrl() {
  const { api } = useAdmin();
  return useMutation({ mutationFn: async (requestId: string) => (await api.orderPaymentRequests.getOrderPaymentRequestUrl(requestId)).orderPaymentRequestUrl ?? '' });
}

/** A merchant's note on the order's timeline (MERCHANT_COMMENT). */
export function useAddNote(orderId: string) {
  const { api } = useAdmin();
  const changed = useOrderChanged(orderId);
  return useMutation({
    mutationFn: (message: string) => api.orders.addActivity(orderId, { merchantComment: { message } }),
    onSuccess: changed,
  });
}
