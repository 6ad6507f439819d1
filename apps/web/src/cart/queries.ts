import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { currentCart, type Address, type Cart, type EstimateTotalsResponse } from '@bodega/sdk';
import { errorCode } from '../shop/errors.js';
import { need, useShop } from '../shop/context.js';

export const STORES_APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';
const CART = ['cart'] as const;
const TOTALS = ['cart', 'totals'] as const;

/** The shopper's cart; an empty one when they have none yet. */
export function useCart() {
  const { client } = useShop();
  return useQuery({
    queryKey: CART,
    enabled: client !== undefined,
    queryFn: async (): Promise<Cart | null> => {
      try {
        return await need(client).use(currentCart).getCurrentCart();
      } catch (error) {
        if (errorCode(error) === 'OWNED_CART_NOT_FOUND') return null;
        throw error;
      }
    },
  });
}

export function cartCount(cart: Cart | null | undefined): number {
  return (cart?.lineItems ?? []).reduce((sum, line) => sum + (line.quantity ?? 0), 0);
}

export interface ShippingOptionView {
  code: string;
  title: string;
  price: string;
  amount: number;
  pickup: boolean;
  deliveryTime?: string;
}

type Json = Record<string, unknown>;
const rec = (v: unknown): Json => (typeof v === 'object' && v !== null ? (v as Json) : {});

/** The options of a cart estimate's or a checkout's shippingInfo. */
export function shippingOptions(shippingInfo: unknown): ShippingOptionView[] {
  const carriers = rec(shippingInfo).carrierServiceOptions;
  if (!Array.isArray(carriers)) return [];
  return carriers.flatMap((carrier) => {
    const options = rec(carrier).shippingOptions;
    return Array.isArray(options) ? options.map((o) => {
      const option = rec(o);
      const logistics = rec(option.logistics);
      const price = rec(rec(option.cost).price);
      return {
        code: String(option.code ?? ''),
        title: String(option.title ?? ''),
        price: String(price.formattedAmount ?? price.amount ?? ''),
        amount: Number(price.amount ?? 0),
        pickup: logistics.pickupDetails !== undefined,
        deliveryTime: typeof logistics.deliveryTime === 'string' ? logistics.deliveryTime : undefined,
      };
    }) : [];
  });
}

export function selectedOptionCode(shippingInfo: unknown): string | undefined {
  const selected = rec(rec(shippingInfo).selectedCarrierServiceOption);
  return typeof selected.code === 'string' ? selected.code : undefined;
}

/** Totals for the cart, from the server; with a destination they include shipping and tax. */
export function useCartTotals(destination: Address | undefined, shippingCode: string | undefined, enabled: boolean) {
  const { client } = useShop();
  return useQuery({
    queryKey: [...TOTALS, destination ?? null, shippingCode ?? null],
    enabled: client !== undefined && enabled,
    queryFn: (): Promise<EstimateTotalsResponse> =>
      need(client).use(currentCart).estimateCurrentCartTotals({
        ...(destination && { shippingAddress: destination }),
        ...(shippingCode && { selectedShippingOption: { code: shippingCode } }),
      }),
  });
}

function useCartMutation<Input>(run: (input: Input) => Promise<Cart | undefined>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (cart) => {
      if (cart) queryClient.setQueryData(CART, cart);
      void queryClient.invalidateQueries({ queryKey: CART });
    },
  });
}

export interface AddLine {
  productId: string;
  variantId?: string;
  options?: Record<string, string>;
  /** The product's custom text fields (a gift card's recipient and message). */
  customTextFields?: Record<string, string>;
  /** A gift card's own amount, a decimal string (the server checks it against the shop's limits). */
  customAmount?: string;
  quantity: number;
}

export function useAddToCart() {
  const { client } = useShop();
  return useCartMutation(async (line: AddLine) => {
    const options: Record<string, unknown> = {};
    if (line.variantId) options.variantId = line.variantId;
    else if (line.options && Object.keys(line.options).length) options.options = line.options;
    if (line.customTextFields && Object.keys(line.customTextFields).length) options.customTextFields = line.customTextFields;
    if (line.customAmount !== undefined) options.customAmount = line.customAmount;
    const response = await need(client).use(currentCart).addToCurrentCart({
      lineItems: [{ quantity: line.quantity, catalogReference: { appId: STORES_APP_ID, catalogItemId: line.productId, options } }],
    });
    return response.cart;
  });
}

export function useSetQuantity() {
  const { client } = useShop();
  return useCartMutation(async ({ lineId, quantity }: { lineId: string; quantity: number }) =>
    (await need(client).use(currentCart).updateCurrentCartLineItemQuantity([{ _id: lineId, quantity }])).cart);
}

export function useRemoveLine() {
  const { client } = useShop();
  return useCartMutation(async (lineId: string) => (await need(client).use(currentCart).removeLineItemsFromCurrentCart([lineId])).cart);
}

export function useApplyCoupon() {
  const { client } = useShop();
  return useCartMutation((couponCode: string) => need(client).use(currentCart).updateCurrentCart({ couponCode }));
}

export function useRemoveCoupon() {
  const { client } = useShop();
  return useCartMutation(async () => (await need(client).use(currentCart).removeCouponFromCurrentCart()).cart);
}

export function useStartCheckout() {
  const { client } = useShop();
  return useMutation({
    mutationFn: async () => (await need(client).use(currentCart).createCheckoutFromCurrentCart({ channelType: 'WEB' })).checkoutId,
  });
}
