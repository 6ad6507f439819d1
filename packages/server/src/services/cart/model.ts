// Shapes shared by the cart's service and its wire mapping (so neither imports the other for them).
import type { ResolvedLine } from '../commerce/lines.js';
import type { PricedCart } from '../commerce/pricing/model.js';
import type { CommerceSettings } from '../commerce-settings/service.js';
import type { Cart } from './store.js';

/** A cart with its lines resolved against the catalog and priced (without shipping or tax). */
export interface CartView {
  cart: Cart;
  lines: ResolvedLine[];
  priced: PricedCart;
  settings: CommerceSettings;
}
