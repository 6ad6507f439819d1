/**
 * Wiring of the modules official templates call beyond the storefront's core (issue 24):
 * recommendations, product reviews and back-in-stock requests. Kept apart from app.ts so
 * these services meet the catalog, orders and members here, in one place.
 */
import type { FastifyInstance } from 'fastify';
import type { CatalogService } from './services/catalog/service.js';
import type { OrdersService } from './services/orders/service.js';
import type { MembersService } from './services/members/service.js';
import { RecommendationsService } from './services/recommendations/service.js';
import { recommendationsRoutes } from './services/recommendations/routes.js';
import { ReviewsService } from './services/reviews/service.js';
import { reviewsRoutes } from './services/reviews/routes.js';
import { BackInStockService } from './services/back-in-stock/service.js';
import { backInStockRoutes } from './services/back-in-stock/routes.js';
import type { Mailer } from './platform/mail.js';
import type { SitesService } from './services/sites/service.js';
import type { CheckoutService } from './services/checkout/service.js';
import type { WebhooksService } from './services/webhooks/service.js';
import { toWireCheckout } from './services/checkout/wire.js';
import type { CartService } from './services/cart/service.js';
import { toWireCart } from './services/cart/wire.js';
import type { RequestContext } from './platform/caller.js';
import { ApiError } from './platform/errors.js';
import type { SiteContext } from './platform/context.js';
import type { GiftCardsService } from './services/gift-cards/service.js';
import { giftCardRoutes } from './services/gift-cards/routes.js';
import { DigitalService } from './services/digital/service.js';
import { digitalRoutes } from './services/digital/routes.js';
import type { Db } from './platform/db.js';
import type { Keyring } from './platform/secrets.js';
import type { FileStorage } from './platform/storage.js';
import { PaymentRequestsService } from './services/orders/payment-requests.js';
import { paymentRequestsRoutes } from './services/orders/payment-requests-routes.js';
import { InvoicesService } from './services/invoices/service.js';
import { invoicesRoutes } from './services/invoices/routes.js';

export interface AppModulesDeps {
  catalog: CatalogService;
  orders: OrdersService;
  members: MembersService;
  sites: SitesService;
  mail: Mailer;
  checkout: CheckoutService;
  cart: CartService;
  webhooks: WebhooksService;
  giftCards: GiftCardsService;
  publicUrl: string;
  /** Per-IP limit of sign-in calls, which the gift-card balance check shares. */
  rateLimitPerMinute: () => number;
  db: Db;
  now: () => Date;
  /** Signs download links. */
  keyring: Keyring;
  /** Where digital products' files are kept. */
  storage: FileStorage;
}

export async function registerAppModules(app: FastifyInstance, deps: AppModulesDeps): Promise<void> {
  const { catalog, orders, members, sites, mail } = deps;
  registerEventEntities(deps);
  await app.register(recommendationsRoutes(new RecommendationsService()));
  const reviews = new ReviewsService({
    assertProduct: async (ctx, productId) => {
      await catalog.getProduct(ctx, productId);
    },
    hasBought: (ctx, memberId, productId) => orders.hasBought(ctx, { kind: 'member', id: memberId }, productId),
    memberName: async (ctx, memberId) => {
      const found = await members.getMember(ctx, memberId, ['PUBLIC']).catch(() => undefined);
      const nickname: unknown = found?.member.profile?.nickname;
      return typeof nickname === 'string' && nickname !== '' ? nickname : null;
    },
  });
  await app.register(reviewsRoutes(reviews));
  // Restocking mails in the saving transaction; the mailer is started once a request that queued
  // some has answered (after its commit), not only by the 30 s retry poll.
  let queuedSinceKick = 0;
  app.addHook('onResponse', async () => {
    if (queuedSinceKick === 0) return;
    queuedSinceKick = 0;
    mail.kick();
  });
  const backInStock = new BackInStockService({
    catalog,
    enqueueMail: async (tx, message) => {
      await mail.enqueue(tx, message);
      queuedSinceKick++;
    },
    shop: async (ctx) => ({ name: (await sites.activeSite(ctx)).name, origin: await sites.pageOrigin(ctx, deps.publicUrl) }),
  });
  await app.register(backInStockRoutes(backInStock));
  deps.giftCards.useMailer({
    enqueue: async (tx, message, notBefore) => {
      await mail.enqueue(tx, message, notBefore);
      queuedSinceKick++;
    },
    shop: async (ctx) => ({ name: (await sites.activeSite(ctx)).name, origin: await sites.pageOrigin(ctx, deps.publicUrl) }),
  });
  await app.register(giftCardRoutes(deps.giftCards, {
    currency: async (ctx) => (await sites.activeSite(ctx)).settings.currency,
    rateLimitPerMinute: deps.rateLimitPerMinute,
  }));
  const digital = new DigitalService({
    db: deps.db, now: deps.now, keyring: deps.keyring, storage: deps.storage,
    product: (ctx, productId) => catalog.getProduct(ctx, productId),
    order: (ctx, orderId) => orders.getOrder(asBackOffice(ctx), orderId).catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 404) return undefined;
      throw error;
    }),
    enqueue: async (tx, message) => {
      await mail.enqueue(tx, message);
      queuedSinceKick++;
    },
    shop: async (ctx) => ({ name: (await sites.activeSite(ctx)).name, origin: await sites.pageOrigin(ctx, deps.publicUrl) }),
  });
  // A paid order's files are granted and their links mailed in the order's transaction, after its gift cards.
  const issueGiftCards = orders.hooks.paid;
  orders.hooks.paid = async (tx, order) => {
    await issueGiftCards?.(tx, order);
    await digital.grantForPaidOrder(tx, order);
  };
  await app.register(digitalRoutes(digital, { rateLimitPerMinute: deps.rateLimitPerMinute }));
  // Payment links of orders (issue 31): paid through the checkout's payment path, sent by mail.
  const paymentRequests = new PaymentRequestsService({
    orders, checkout: deps.checkout, keyring: deps.keyring,
    pageBase: (ctx) => sites.pageBase(ctx, deps.publicUrl),
    shopName: async (ctx) => (await sites.activeSite(ctx)).name,
    enqueue: async (tx, message) => {
      await mail.enqueue(tx, message);
      queuedSinceKick++;
    },
  });
  await app.register(paymentRequestsRoutes(paymentRequests, async (ctx) => (await sites.activeSite(ctx)).settings.currency));
  // Invoices: issued on demand, or in a paid order's transaction when the site asks (after its files).
  const invoices = new InvoicesService({
    db: deps.db, now: deps.now, orders,
    shop: async (ctx) => ({ name: (await sites.activeSite(ctx)).name, origin: await sites.pageOrigin(ctx, deps.publicUrl) }),
    enqueue: async (tx, message) => {
      await mail.enqueue(tx, message);
      queuedSinceKick++;
    },
  });
  const beforeInvoice = orders.hooks.paid;
  orders.hooks.paid = async (tx, order) => {
    await beforeInvoice?.(tx, order);
    await invoices.issueWhenPaid(tx, order);
  };
  await app.register(invoicesRoutes(invoices));
}

/** The back office's view of a site, for rendering an event's entity at fan-out (no shopper restrictions). */
function asBackOffice(ctx: SiteContext): RequestContext {
  return { ...ctx, caller: { kind: 'APP', siteId: ctx.siteId, subjectId: 'webhooks' }, requestId: 'webhooks' };
}

/**
 * Member, cart and checkout events carry the entity as the REST reads return it (as order events do),
 * so an official SDK handler (`onMemberUpdated`, `onCartUpdated`, `onCheckoutUpdated`) gets the whole entity.
 */
function registerEventEntities(deps: AppModulesDeps): void {
  deps.webhooks.registerRenderer('member', async (ctx, memberId) => (await deps.members.getMember(asBackOffice(ctx), memberId, ['FULL'])).member);
  deps.webhooks.registerRenderer('cart', async (ctx, cartId) => {
    const view = await deps.cart.cartById(asBackOffice(ctx), cartId);
    return view && toWireCart(view, deps.publicUrl);
  });
  deps.webhooks.registerRenderer('checkout', async (ctx, checkoutId) => toWireCheckout(await deps.checkout.getCheckout(asBackOffice(ctx), checkoutId), deps.publicUrl));
}
