import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { payments, type PaymentLink } from '@bodega/sdk';
import { need, useShop } from '../shop/context.js';

export const paymentLinkKey = (token: string) => ['payment-link', token] as const;

/** What a payment link asks for: the request and its order's lines and totals. */
export function usePaymentLink(token: string) {
  const { client } = useShop();
  return useQuery({
    queryKey: paymentLinkKey(token),
    enabled: client !== undefined && token !== '',
    queryFn: () => need(client).use(payments).paymentLink(token),
    retry: false,
    staleTime: 0,
  });
}

/** Pays the link with what the payment step produced; the page then shows the paid request. */
export function usePayLink(token: string) {
  const { client } = useShop();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (paymentToken: string) => need(client).use(payments).payPaymentLink(token, paymentToken),
    onSuccess: (paid: PaymentLink) => queryClient.setQueryData(paymentLinkKey(token), paid),
  });
}
