import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { MAX_RECOMMENDED_ITEMS, type RecommendationsService } from './service.js';
import { AvailableAlgorithms, RecommendationResponse } from './wire-schemas.js';

const Id = Type.String({ minLength: 1, maxLength: 200 });
const AlgorithmRef = Type.Object({ _id: Type.Optional(Id), id: Type.Optional(Id), appId: Id });
const CatalogReference = Type.Object({ catalogItemId: Id, appId: Id, options: Type.Optional(Type.Unknown()) });
const GetBody = Type.Object({
  algorithms: Type.Array(AlgorithmRef, { minItems: 1, maxItems: 20 }),
  items: Type.Optional(Type.Array(CatalogReference, { maxItems: 100 })),
  minimumRecommendedItems: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_RECOMMENDED_ITEMS })),
});

/** The @wix/ecom recommendations module: `/v1/recommendations` (and `/ecom/v1/recommendations`, the REST reference's path). */
export function recommendationsRoutes(recommendations: RecommendationsService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const config = { access: 'shop' } as const;
    for (const prefix of ['/v1/recommendations', '/ecom/v1/recommendations']) {
      app.get(`${prefix}/algorithms`, { config, schema: { response: { 200: AvailableAlgorithms } } }, async () => ({ availableAlgorithms: recommendations.listAvailableAlgorithms() }));
      app.post(`${prefix}/get`, { config, schema: { body: GetBody, response: { 200: RecommendationResponse } } }, async (req) => {
        const b = req.body;
        const algorithms = b.algorithms.map((a) => ({ id: a.id ?? a._id ?? '', appId: a.appId }));
        const recommendation = await recommendations.getRecommendation(req.ctx, {
          algorithms,
          items: (b.items ?? []).map((i) => ({ catalogItemId: i.catalogItemId, appId: i.appId })),
          minimumRecommendedItems: b.minimumRecommendedItems ?? 1,
        });
        return { recommendation: { items: recommendation.items, ...(recommendation.algorithm ? { algorithm: recommendation.algorithm } : {}) } };
      });
    }
  };
}
