import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { IssueGiftCardInput } from '@bodega/sdk';
import { useAdmin } from '../context.js';

export const GIFT_CARDS_LIMIT = 25;

/** Query keys: the list (per search and page) and one card with its ledger. */
export const giftCardKeys = {
  all: ['admin', 'gift-cards'] as const,
  list: (search: string, offset: number) => [...giftCardKeys.all, 'list', search, offset] as const,
  one: (id: string) => [...giftCardKeys.all, 'one', id] as const,
};

export function useGiftCards(search: string, offset: number) {
  const { api } = useAdmin();
  return useQuery({
    queryKey: giftCardKeys.list(search, offset),
    placeholderData: keepPreviousData,
    queryFn: () => api.giftCards.list({ ...(search && { search }), limit: GIFT_CARDS_LIMIT, offset }),
  });
}

export function useGiftCard(id: string | null) {
  const { api } = useAdmin();
  return useQuery({ queryKey: giftCardKeys.one(id ?? ''), enabled: id !== null, queryFn: () => api.giftCards.get(id ?? '') });
}

type GiftCardAction =
  | { kind: 'issue'; input: IssueGiftCardInput }
  | { kind: 'adjust'; id: string; amount: string; reason: string }
  | { kind: 'disable' | 'enable'; id: string };

/** Issue, adjust, disable or enable a card; the list and the card are read again. */
export function useGiftCardAction() {
  const { api } = useAdmin();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: GiftCardAction) => {
      if (action.kind === 'issue') return api.giftCards.issue(action.input);
      if (action.kind === 'adjust') return api.giftCards.adjust(action.id, action.amount, action.reason);
      return action.kind === 'disable' ? api.giftCards.disable(action.id) : api.giftCards.enable(action.id);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: giftCardKeys.all }),
  });
}
