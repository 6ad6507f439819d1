import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { need, useShop } from '../shop/context.js';
import { checkoutKey } from '../checkout/queries.js';

export const giftCardKeys = {
  all: ['gift-cards'] as const,
  mine: () => [...giftCardKeys.all, 'mine'] as const,
};

/** A code's balance (the server limits how often an address may ask). */
export function useCheckBalance() {
  const { client } = useShop();
  return useMutation({ mutationFn: (code: string) => need(client).giftCards.checkBalance(code) });
}

/** The signed-in member's cards, with their codes. */
export function useMyGiftCards(enabled: boolean) {
  const { client } = useShop();
  return useQuery({ queryKey: giftCardKeys.mine(), enabled: client !== undefined && enabled, queryFn: () => need(client).giftCards.myGiftCards() });
}

/** Adds a card to the checkout: it pays first, the rest by the payment below. */
export function useApplyGiftCard(checkoutId: string) {
  const { client } = useShop();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => need(client).checkout.updateCheckout(checkoutId, {}, { giftCardCode: code }),
    onSuccess: (checkout) => queryClient.setQueryData(checkoutKey(checkoutId), checkout),
  });
}

export function useRemoveGiftCards(checkoutId: string) {
  const { client } = useShop();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await need(client).checkout.removeGiftCard(checkoutId)).checkout,
    onSuccess: (checkout) => {
      if (checkout) queryClient.setQueryData(checkoutKey(checkoutId), checkout);
    },
  });
}
