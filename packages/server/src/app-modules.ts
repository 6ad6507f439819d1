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

export interface AppModulesDeps {
  catalog: CatalogService;
  orders: OrdersService;
  members: MembersService;
  sites: SitesService;
  mail: Mailer;
  publicUrl: string;
}

export async function registerAppModules(app: FastifyInstance, deps: AppModulesDeps): Promise<void> {
  const { catalog, orders, members, sites, mail } = deps;
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
  const backInStock = new BackInStockService({
    catalog,
    enqueueMail: async (tx, message) => {
      await mail.enqueue(tx.db, message);
    },
    shop: async (ctx) => ({ name: (await sites.activeSite(ctx)).name, origin: await sites.pageOrigin(ctx, deps.publicUrl) }),
  });
  await app.register(backInStockRoutes(backInStock));
}
