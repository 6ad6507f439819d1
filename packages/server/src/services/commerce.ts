// Wires the commerce services (catalog, cart, checkout, orders) and their routes, so app.ts adds
// them with one field and one registration.
import type { FastifyInstance } from 'fastify';
import type { Db, Queryable } from '../platform/db.js';
import type { SitesService } from './sites/service.js';
import { CatalogService } from './catalog/service.js';
import { catalogRoutes } from './catalog/routes.js';
import { catalogV3Routes } from './catalog/v3-routes.js';
import { CartService } from './cart/service.js';
import { cartRoutes } from './cart/routes.js';
import { CheckoutService } from './checkout/service.js';
import { checkoutRoutes } from './checkout/routes.js';
import { OrdersService } from './orders/service.js';
import { ordersRoutes } from './orders/routes.js';

export interface CommerceServices {
  catalog: CatalogService;
  cart: CartService;
  checkout: CheckoutService;
  orders: OrdersService;
}

/** What the identity service offers for "a visitor became a member" (at the code exchange). */
export interface VisitorHandOffs {
  onVisitorBecameMember(hook: (tx: Queryable, siteId: string, visitorId: string, memberId: string) => Promise<void>): void;
}

export function buildCommerce(db: Db, sites: SitesService, now: () => Date): CommerceServices {
  const catalog = new CatalogService(db, sites);
  const cart = new CartService(db, sites, catalog, now);
  const orders = new OrdersService(db, sites, catalog, cart);
  const checkout = new CheckoutService(db, sites, catalog, cart, orders);
  return { catalog, cart, checkout, orders };
}

/** Moves a visitor's cart to the member they became, in the sign-in transaction. */
export function mergeCartsAtSignIn(commerce: CommerceServices, identity: VisitorHandOffs): void {
  identity.onVisitorBecameMember((tx, siteId, visitorId, memberId) => commerce.cart.mergeVisitorCart(tx, siteId, visitorId, memberId));
}

export function commerceRoutes(commerce: CommerceServices, publicUrl: string) {
  return async (app: FastifyInstance) => {
    await app.register(catalogRoutes(commerce.catalog, publicUrl));
    await app.register(catalogV3Routes(commerce.catalog, publicUrl));
    await app.register(cartRoutes(commerce.cart, publicUrl));
    await app.register(checkoutRoutes(commerce.checkout, commerce.cart, publicUrl));
    await app.register(ordersRoutes(commerce.orders, publicUrl));
  };
}
