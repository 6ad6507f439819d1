import { giftCards } from '@bodega/sdk';
import { useMutation, useQuery } from '@tanstack/react-query';
import { need, useShop } from '../shop/context.js';

export const giftCardKeys = {
  all: ['gift-cards'] as const,
  mine: () => [...giftCardKeys.all, 'mine'] as const,
};

/** A code's balance (the server limits how often an address may ask). */
export function useCheckBalance() {
  const { client } = useShop();
  return useMutation({ mutationFn: (code: string) => need(client).use(giftCards).checkBalance(code) });
}

/** The signed-in member's cards, with their codes. */
export function useMyGiftCards(enabled: boolean) {
  const { client } = useShop();
  return useQuery({ queryKey: giftCardKeys.mine(), enabled: client !== undefined && enabled, queryFn: () => need(client).use(giftCards).myGiftCards() });
}

/** Which products are gift cards and the custom amounts they take (asked only on a gift card's page). */
export function useGiftCardCustomAmounts(enabled: boolean) {
  const { client } = useShop();
  return useQuery({ queryKey: [...giftCardKeys.all, 'custom-amounts'], enabled: client !== undefined && enabled, queryFn: () => need(client).use(giftCards).customAmounts() });
}
