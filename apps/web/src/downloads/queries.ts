import { digital } from '@bodega/sdk';
import { useMutation, useQuery } from '@tanstack/react-query';
import { need, useShop } from '../shop/context.js';

export const downloadKeys = {
  all: ['downloads'] as const,
  mine: () => [...downloadKeys.all, 'mine'] as const,
};

/** The signed-in member's files, each with a fresh link (links expire, so never kept long). */
export function useMyDownloads() {
  const { client } = useShop();
  return useQuery({ queryKey: downloadKeys.mine(), enabled: client !== undefined, staleTime: 60_000, queryFn: () => need(client).use(digital).myDownloads() });
}

/** A guest's request for the links of an order (the server answers the same whether or not it mails them). */
export function useResendLinks() {
  const { client } = useShop();
  return useMutation({ mutationFn: (v: { orderNumber: number; email: string }) => need(client).use(digital).resendLinks(v.orderNumber, v.email) });
}
