/** `@wix/stores` inventory (stores v2): per-variant stock of a product. */
import { call, enc } from '../core/generated.js';
import type { Transport } from '../core/transport.js';

const P = '/stores/v2/inventoryItems/product';

export interface InventoryVariantUpdate {
  variantId: string;
  quantity?: number;
  inStock?: boolean;
}
export interface InventoryItemUpdate {
  trackQuantity?: boolean;
  variants?: InventoryVariantUpdate[];
}

export function inventory(t: Transport) {
  return {
    updateInventoryVariants: (productId: string, inventoryItem: InventoryItemUpdate) =>
      call<Record<string, never>>(t, 'PATCH', `${P}/${enc(productId)}`, { inventoryItem: { ...inventoryItem, productId } }, {
        args: { 'inventoryItem.productId': 'productId', inventoryItem: 'inventoryItem' },
      }),
  };
}
