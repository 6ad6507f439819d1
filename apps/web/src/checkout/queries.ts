import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { checkout, orders, payments, redirects, tips, type CheckoutHandover, type CheckoutUpdate, type TipChoice } from '@bodega/sdk';
import { need, useShop } from '../shop/context.js';

export const checkoutKey = (id: string) => ['checkout', id] as const;

export function useCheckout(id: string) {
  const { client } = useShop();
  return useQuery({
    queryKey: checkoutKey(id),
    enabled: client !== undefined && id !== '',
    queryFn: () => need(client).use(checkout).getCheckout(id),
    staleTime: 0,
  });
}

export function useUpdateCheckout(id: string) {
  const { client } = useShop();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (update: CheckoutUpdate) => need(client).use(checkout).updateCheckout(id, update),
    onSuccess: (updated) => queryClient.setQueryData(checkoutKey(id), updated),
  });
}

/** What the store offers at the payment step (its provider and offline methods). */
export function usePaymentOptions() {
  const { client } = useShop();
  return useQuery({
    queryKey: ['payment-options'],
    enabled: client !== undefined,
    queryFn: () => need(client).use(payments).paymentOptions(),
    staleTime: 60_000,
  });
}

/** `token`: what the payment step produced (a card's token, a Stripe PaymentMethod, or `offline:METHOD`). */
export type Payment = { kind: 'offline' } | { kind: 'card'; token: string };

/** Places the order: an offline order, or charged through the store's card provider. */
export function usePlaceOrder(id: string) {
  const { client } = useShop();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (payment: Payment) => {
      const api = need(client).use(checkout);
      const result = payment.kind === 'card' ? await api.createOrderAndCharge(id, { paymentToken: payment.token }) : await api.createOrder(id);
      if (!result.orderId) throw new Error('The store did not return an order number');
      return result.orderId;
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['cart'] });
      void queryClient.invalidateQueries({ queryKey: ['orders'] });
    },
  });
}

/** Back from the provider's page (a full-page 3-D Secure redirect): the server asks the provider, then places the order. */
export function usePaymentReturn(id: string) {
  const { client } = useShop();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (paymentIntentId: string) => (await need(client).use(payments).paymentReturn(id, paymentIntentId)).orderId,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['cart'] });
      void queryClient.invalidateQueries({ queryKey: ['orders'] });
    },
  });
}

export function useOrder(orderId: string) {
  const { client } = useShop();
  return useQuery({
    queryKey: ['orders', 'one', orderId],
    enabled: client !== undefined && orderId !== '',
    queryFn: () => need(client).use(orders).getOrder(orderId),
  });
}

/**
 * The hosted checkout opened from an app's checkout link: claims the link's shopper once (the
 * server refuses a second claim), and makes this page that shopper (see handover.ts).
 */
export function useHandoverClaim(redirectSessionId: string, checkoutId: string, adopt: (handover: CheckoutHandover) => void) {
  const { client, site } = useShop();
  return useQuery({
    queryKey: ['checkout-handover', redirectSessionId],
    enabled: client !== undefined && redirectSessionId !== '' && checkoutId !== '',
    queryFn: async () => {
      const handover = await need(client).use(redirects).claimCheckoutHandover(redirectSessionId, { clientId: site.clientId, checkoutId });
      adopt(handover);
      return handover;
    },
    // A claim is used up by the first call: never again for the same link.
    retry: false, staleTime: Infinity, gcTime: Infinity, refetchOnWindowFocus: false, refetchOnReconnect: false,
  });
}

/** Adds a card to the checkout: it pays first, the rest by the payment below. */
export function useApplyGiftCard(checkoutId: string) {
  const { client } = useShop();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => need(client).use(checkout).updateCheckout(checkoutId, {}, { giftCardCode: code }),
    onSuccess: (updated) => queryClient.setQueryData(checkoutKey(checkoutId), updated),
  });
}

export function useRemoveGiftCards(checkoutId: string) {
  const { client } = useShop();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await need(client).use(checkout).removeGiftCard(checkoutId)).checkout,
    onSuccess: (updated) => {
      if (updated) queryClient.setQueryData(checkoutKey(checkoutId), updated);
    },
  });
}

/** The site's tip settings: whether the checkout offers tips, and which. */
export function useTipSettings() {
  const { client } = useShop();
  return useQuery({
    queryKey: ['tip-settings'],
    enabled: client !== undefined,
    queryFn: async () => (await need(client).use(tips).tipSettings()) ?? null,
    staleTime: 60_000,
  });
}

export function useTipChoice(checkoutId: string) {
  const { client } = useShop();
  return useQuery({
    queryKey: ['tip-choice', checkoutId],
    enabled: client !== undefined && checkoutId !== '',
    queryFn: async () => (await need(client).use(tips).getTipChoice(checkoutId)).tipChoice ?? null,
  });
}

/** Sets the checkout's tip; the checkout is read again, priced with it. */
export function useSetTip(checkoutId: string) {
  const { client } = useShop();
  const queryClient = useQueryClient();
  return useMutation({
    // One at a time, in the order chosen: arrowing through the choices ends on the last one.
    scope: { id: `tip-${checkoutId}` },
    mutationFn: async (choice: TipChoice) => {
      const api = need(client);
      const { tipChoice } = await api.use(tips).updateTipChoice(choice, { purchaseFlowId: checkoutId });
      return { tipChoice: tipChoice ?? null, checkout: await api.use(checkout).getCheckout(checkoutId) };
    },
    onSuccess: ({ tipChoice, checkout: updated }) => {
      queryClient.setQueryData(['tip-choice', checkoutId], tipChoice);
      queryClient.setQueryData(checkoutKey(checkoutId), updated);
    },
  });
}
