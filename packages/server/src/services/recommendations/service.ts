// Recommendations (the @wix/ecom recommendations module): the algorithms Wix Stores provides,
// run on this site's catalog and orders. `getRecommendation` tries the algorithms in the order
// given and answers with the first that finds at least `minimumRecommendedItems` items.
import type { RequestContext } from '../../platform/caller.js';
import { ApiError } from '../../platform/errors.js';
import { isStoresAppId, STORES_APP_ID } from '../catalog/service.js';
import * as store from './store.js';

/** At most this many items in one recommendation (as Wix Stores' algorithms). */
export const MAX_RECOMMENDED_ITEMS = 16;

export type AlgorithmType = 'RELATED_ITEMS' | 'GLOBAL';

interface AlgorithmDefinition {
  id: string;
  name: string;
  description: string;
  algorithmType: AlgorithmType;
  run(ctx: RequestContext, items: readonly string[], limit: number): Promise<string[]>;
}

const sameCategories: AlgorithmDefinition['run'] = (ctx, items, limit) => (items.length ? store.sameCollections(ctx, items, limit) : Promise.resolve([]));

/** The Wix Stores algorithm ids templates send (from the site's listAvailableAlgorithms on Wix). */
export const ALGORITHMS: readonly AlgorithmDefinition[] = [
  {
    id: '68ebce04-b96a-4c52-9329-08fc9d8c1253',
    name: 'From the same categories',
    description: 'Items that share the most categories (collections) with the items given.',
    algorithmType: 'RELATED_ITEMS',
    run: sameCategories,
  },
  {
    id: 'd5aac1e1-2e53-4d11-85f7-7172710b4783',
    name: 'Frequently bought together',
    description: 'Items most often in the same orders as the first item given.',
    algorithmType: 'RELATED_ITEMS',
    run: (ctx, items, limit) => (items.length ? store.boughtTogether(ctx, items[0], items, limit) : Promise.resolve([])),
  },
  {
    // Bodega records no product views: this one answers from the same categories.
    id: '5dd69f67-9ab9-478e-ba7c-10c6c6e7285f',
    name: 'Frequently viewed together',
    description: 'Items related to the items given (from the same categories: views are not recorded).',
    algorithmType: 'RELATED_ITEMS',
    run: sameCategories,
  },
  {
    id: 'ba491fd2-b172-4552-9ea6-7202e01d1d3c',
    name: 'Best sellers',
    description: 'The items with the most units sold.',
    algorithmType: 'GLOBAL',
    run: (ctx, items, limit) => store.bestSellers(ctx, items, limit),
  },
];

export interface AlgorithmRef {
  id: string;
  appId: string;
}

export interface ItemRef {
  catalogItemId: string;
  appId: string;
}

export interface RecommendationRequest {
  algorithms: readonly AlgorithmRef[];
  items: readonly ItemRef[];
  minimumRecommendedItems: number;
}

export interface Recommendation {
  items: ItemRef[];
  algorithm?: AlgorithmRef;
}

export class RecommendationsService {
  listAvailableAlgorithms() {
    return ALGORITHMS.map((a) => ({
      config: { name: a.name, description: a.description, algorithmType: a.algorithmType, algorithmId: a.id },
      appId: STORES_APP_ID,
      catalogAppIds: [STORES_APP_ID],
    }));
  }

  async getRecommendation(ctx: RequestContext, request: RecommendationRequest): Promise<Recommendation> {
    const known = request.algorithms.map((ref) => ({ ref, algorithm: isStoresAppId(ref.appId) ? ALGORITHMS.find((a) => a.id === ref.id) : undefined }));
    const unsupported = known.filter((k) => !k.algorithm).map((k) => k.ref);
    if (unsupported.length === request.algorithms.length) {
      throw new ApiError(400, 'ALGORITHM_NOT_SUPPORTED', 'None of the algorithms is provided on this site', { unsupportedAlgorithms: unsupported.map((a) => ({ _id: a.id, appId: a.appId })) });
    }
    const foreign = request.items.filter((item) => !isStoresAppId(item.appId));
    if (foreign.length) {
      throw new ApiError(400, 'ITEM_APP_ID_NOT_SUPPORTED', 'Recommendations are for catalog items of Wix Stores', { items: foreign });
    }
    const itemIds = [...new Set(request.items.map((i) => i.catalogItemId))];
    const appId = request.items[0]?.appId ?? STORES_APP_ID;
    const minimum = Math.max(1, request.minimumRecommendedItems);
    for (const { ref, algorithm } of known) {
      if (!algorithm) continue;
      const ids = await algorithm.run(ctx, itemIds, MAX_RECOMMENDED_ITEMS);
      if (ids.length >= minimum) return { items: ids.map((catalogItemId) => ({ catalogItemId, appId })), algorithm: ref };
    }
    return { items: [] };
  }
}
