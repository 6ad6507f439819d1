import { isUniqueViolation } from '../../platform/db.js';
import type { RequestContext } from '../../platform/caller.js';
import { inTransaction, withTransaction, type SiteContext } from '../../platform/context.js';
import { ProductCache } from './product-cache.js';
import { ApiError } from '../../platform/errors.js';
import { recordEvent, type OutboxEvent } from '../../platform/events.js';
import { newId } from '../../platform/ids.js';
import type { CatalogVersion, SitesService } from '../sites/service.js';
import { currencyExponent } from '../../platform/money.js';
import {
  ALL_PRODUCTS_COLLECTION_ID,
  applyStockChanges,
  buildVariants,
  MAX_VARIANTS,
  choiceCombinations,
  stockOf,
  type Product,
  type StockChange,
  type Variant,
} from './products.js';
import { compileFilter, orderBy, parseSort } from '../../platform/query-filter.js';
import { COLLECTION_FIELDS, filterError, productFields, readPaging, stockCondition, type Page, type PageQuery, type StockFilter } from './product-query.js';
import { applyVariantPatches, checkProductShape, slugify } from './product-rules.js';
import * as store from './store.js';
import { hasSearchText, searchJoin, SEARCH_JOIN_ORDER } from './search-query.js';
import * as searchStore from './search-store.js';
import { aggregationsSql, type V3Aggregation } from './v3-aggregations.js';
import type { Collection } from './store.js';
import { type MediaInput, type ProductPatch, type VariantPatch } from './wire.js';
import { assignChoiceMedia, keepChoiceMedia, keepMediaIds, type ChoiceMediaAssignment } from './choice-media.js';

export type { Collection } from './store.js';
export { DEFAULT_LOW_STOCK, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './product-query.js';
export type { Page, PageQuery, StockFilter, StockStatus } from './product-query.js';
export { slugify } from './product-rules.js';

/** Visitors and members are shoppers: they see visible products and collections only. */
export function isShopper(ctx: RequestContext): boolean {
  return ctx.caller.kind === 'ANONYMOUS_VISITOR' || ctx.caller.kind === 'MEMBER';
}

export interface CollectionInput {
  name?: string;
  slug?: string;
  description?: string | null;
  visible?: boolean;
  media?: { url: string; width: number; height: number } | null;
}

function notFound(productId: string): ApiError {
  return ApiError.notFound('PRODUCT_NOT_FOUND', `Product ${productId} was not found`, { productId });
}

/** Runs inside the transaction that saved these products (edits, inventory changes, restocks). */
export type ProductsSavedHook = (tx: SiteContext, products: readonly Product[]) => Promise<void>;

export class CatalogService {
  private readonly cache: ProductCache;
  private readonly savedHooks: ProductsSavedHook[] = [];
  private mediaSizes = async (_ctx: RequestContext, media: MediaInput[]): Promise<MediaInput[]> => media;

  constructor(
    private readonly sites: SitesService,
    now: () => Date,
  ) {
    this.cache = new ProductCache(now);
  }

  /** Every site starts with the All Products collection: app.ts runs this in site creation's transaction. */
  async createAllProductsCollection(ctx: SiteContext, site: { createdDate: Date }): Promise<void> {
    await store.insertCollection(ctx, {
      id: ALL_PRODUCTS_COLLECTION_ID,
      slug: 'all-products',
      name: 'All Products',
      description: null,
      visible: true,
      media: null,
      createdDate: site.createdDate,
      updatedDate: site.createdDate,
    });
  }

  async currency(siteId: string): Promise<string> {
    return (await this.sites.getActiveSite(siteId)).settings.currency;
  }

  /** Which catalog API generation the site's apps are told to use (catalogVersioning). */
  async catalogVersion(siteId: string): Promise<CatalogVersion> {
    return (await this.sites.getActiveSite(siteId)).settings.catalogVersion ?? 'V1_CATALOG';
  }

  // Products ------------------------------------------------------------------------------------

  async createProduct(ctx: RequestContext, patch: ProductPatch): Promise<Product> {
    if (patch.media) patch = { ...patch, media: await this.mediaSizes(ctx, patch.media) };
    return withTransaction(ctx, (tx) => this.createProductIn(tx, patch));
  }

  /** Creates a product inside the caller's transaction (also the back office's imports). */
  async createProductIn(ctx: SiteContext, patch: ProductPatch): Promise<Product> {
    const now = ctx.now();
    const missing = [];
    if (!patch.name) missing.push({ field: 'product.name', rule: 'REQUIRED_FIELD' as const, description: 'a product needs a name' });
    if (patch.price === undefined) missing.push({ field: 'product.priceData.price', rule: 'REQUIRED_FIELD' as const, description: 'a product needs a price' });
    if (missing.length) throw ApiError.validation(missing);
    const name = patch.name as string;
    const slug = patch.slug ?? (await this.freeSlug(ctx, slugify(name)));
    const id = newId();
    const product: Product = {
      id,
      numericId: await store.nextCounter(ctx, 'product_numeric_id', 1),
      slug,
      name,
      description: patch.description ?? '',
      productType: patch.productType ?? 'physical',
      visible: patch.visible ?? true,
      sku: patch.sku ?? null,
      weight: patch.weight ?? null,
      price: patch.price as bigint,
      discount: patch.discount ?? { type: 'NONE', value: '0' },
      trackInventory: patch.trackInventory ?? false,
      quantity: patch.trackInventory ? (patch.quantity ?? 0) : null,
      inStock: patch.inStock ?? true,
      manageVariants: patch.manageVariants ?? false,
      options: patch.options ?? [],
      variants: [],
      media: (patch.media ?? []).map((m) => ({ id: newId(), ...m })),
      ribbon: patch.ribbon ?? null,
      brand: patch.brand ?? null,
      additionalInfoSections: patch.additionalInfoSections ?? [],
      customTextFields: patch.customTextFields ?? [],
      collectionIds: [ALL_PRODUCTS_COLLECTION_ID],
      createdDate: now,
      updatedDate: now,
    };
    checkProductShape(product);
    product.variants = buildVariants(product.options, [], newId);
    if (patch.variants) product.variants = applyVariantPatches(product, patch.variants, 'product.variants');
    try {
      await store.insertProduct(ctx, product);
    } catch (error) {
      if (isUniqueViolation(error, 'products_by_slug')) throw new ApiError(409, 'DUPLICATE_SLUG', `The slug "${slug}" is taken`, { slug });
      throw error;
    }
    await event(ctx, { type: 'product.created', entityType: 'product', entityId: id, payload: { productId: id, name, slug } });
    return product;
  }

  private async freeSlug(ctx: SiteContext, base: string): Promise<string> {
    const taken = await store.slugsStartingWith(ctx, base);
    if (!taken.has(base)) return base;
    for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
  }

  /** Reads, changes and writes one product under its row lock. */
  private async mutate(ctx: RequestContext, productId: string, change: (product: Product) => Promise<void> | void, eventType = 'product.updated'): Promise<Product> {
    this.forget(ctx.siteId, [productId]);
    try {
      return await this.mutateLocked(ctx, productId, change, eventType);
    } finally {
      this.forget(ctx.siteId, [productId]);
    }
  }

  private async mutateLocked(ctx: RequestContext, productId: string, change: (product: Product) => Promise<void> | void, eventType: string): Promise<Product> {
    return withTransaction(ctx, async (tx) => {
      const product = await store.findProduct(tx, productId, true);
      if (!product) throw notFound(productId);
      await change(product);
      product.updatedDate = ctx.now();
      checkProductShape(product);
      try {
        await store.updateProduct(tx, product);
      } catch (error) {
        if (isUniqueViolation(error, 'products_by_slug')) throw new ApiError(409, 'DUPLICATE_SLUG', `The slug "${product.slug}" is taken`, { slug: product.slug });
        throw error;
      }
      await event(tx, { type: eventType, entityType: 'product', entityId: productId, payload: { productId } });
      await this.productsSaved(tx, [product]);
      return product;
    });
  }

  async updateProduct(ctx: RequestContext, productId: string, patch: ProductPatch): Promise<Product> {
    if (patch.media) patch = { ...patch, media: await this.mediaSizes(ctx, patch.media) };
    return this.mutate(ctx, productId, (product) => {
      if (patch.name !== undefined) product.name = patch.name;
      if (patch.slug !== undefined) product.slug = patch.slug;
      if (patch.description !== undefined) product.description = patch.description;
      if (patch.productType !== undefined) product.productType = patch.productType;
      if (patch.visible !== undefined) product.visible = patch.visible;
      if (patch.sku !== undefined) product.sku = patch.sku;
      if (patch.weight !== undefined) product.weight = patch.weight;
      if (patch.price !== undefined) product.price = patch.price;
      if (patch.discount !== undefined) product.discount = patch.discount;
      if (patch.trackInventory !== undefined) {
        if (patch.trackInventory && !product.trackInventory) product.quantity = product.quantity ?? 0;
        product.trackInventory = patch.trackInventory;
      }
      if (patch.quantity !== undefined) product.quantity = patch.quantity;
      if (patch.inStock !== undefined) product.inStock = patch.inStock;
      if (patch.manageVariants !== undefined) product.manageVariants = patch.manageVariants;
      if (patch.options !== undefined) {
        keepChoiceMedia(product.options, patch.options);
        product.options = patch.options;
        if (choiceCombinations(product.options).length <= MAX_VARIANTS) product.variants = buildVariants(product.options, product.variants, newId);
      }
      if (patch.variants !== undefined) product.variants = applyVariantPatches(product, patch.variants, 'product.variants');
      if (patch.media !== undefined) product.media = keepMediaIds(product.media, patch.media, newId);
      if (patch.ribbon !== undefined) product.ribbon = patch.ribbon;
      if (patch.brand !== undefined) product.brand = patch.brand;
      if (patch.additionalInfoSections !== undefined) product.additionalInfoSections = patch.additionalInfoSections;
      if (patch.customTextFields !== undefined) product.customTextFields = patch.customTextFields;
    });
  }

  async deleteProduct(ctx: RequestContext, productId: string): Promise<void> {
    this.forget(ctx.siteId, [productId]);
    try {
      await withTransaction(ctx, async (tx) => {
        if (!(await store.deleteProduct(tx, productId))) throw notFound(productId);
        await event(tx, { type: 'product.deleted', entityType: 'product', entityId: productId, payload: { productId } });
      });
    } finally {
      this.forget(ctx.siteId, [productId]);
    }
  }

  async updateVariants(ctx: RequestContext, productId: string, patches: VariantPatch[]): Promise<Product> {
    return this.mutate(ctx, productId, (product) => {
      product.variants = applyVariantPatches(product, patches, 'variants');
    });
  }

  async resetVariants(ctx: RequestContext, productId: string): Promise<Product> {
    return this.mutate(ctx, productId, (product) => {
      product.variants = product.variants.map((v) => ({ ...v, price: null, weight: null, sku: null, visible: true }));
    });
  }

  /** Stores v2 inventory: per-variant quantities and in-stock flags, and whether quantity is tracked. */
  async updateInventory(ctx: RequestContext, productId: string, input: { trackQuantity?: boolean; variants: { variantId: string; quantity?: number | null; inStock?: boolean }[] }): Promise<Product> {
    return this.mutate(ctx, productId, (product) => {
      if (input.trackQuantity !== undefined) product.trackInventory = input.trackQuantity;
      for (const [i, change] of input.variants.entries()) {
        const variant = product.variants.find((v) => v.id === change.variantId);
        if (!variant) throw ApiError.validation([{ field: `inventoryItem.variants[${i}].variantId`, rule: 'VALIDATION', description: `no variant ${change.variantId}` }]);
        if (product.manageVariants) {
          if (change.quantity !== undefined) variant.quantity = change.quantity;
          if (change.inStock !== undefined) variant.inStock = change.inStock;
        } else {
          if (change.quantity !== undefined) product.quantity = change.quantity;
          if (change.inStock !== undefined) product.inStock = change.inStock;
        }
      }
      if (product.trackInventory && product.quantity === null) product.quantity = 0;
    });
  }

  async addMedia(ctx: RequestContext, productId: string, media: MediaInput[]): Promise<Product> {
    const sized = await this.mediaSizes(ctx, media);
    return this.mutate(ctx, productId, (product) => {
      product.media = [...product.media, ...sized.map((m) => ({ id: newId(), ...m }))];
    });
  }

  /** Adds pictures to option choices, or removes them (all of a choice's when its list is empty). */
  choiceMedia = (ctx: RequestContext, productId: string, assignments: ChoiceMediaAssignment[], add: boolean): Promise<Product> =>
    this.mutate(ctx, productId, (product) => assignChoiceMedia(product.options, product.media, assignments, add));
  /** Uploaded pictures get their real size and their path on this server (media/service.ts). */
  useMediaSizes(sizes: (ctx: RequestContext, media: MediaInput[]) => Promise<MediaInput[]>): void { this.mediaSizes = sizes; }

  async removeMedia(ctx: RequestContext, productId: string, mediaIds: string[] | undefined): Promise<Product> {
    return this.mutate(ctx, productId, (product) => {
      product.media = mediaIds?.length ? product.media.filter((m) => !mediaIds.includes(m.id)) : [];
    });
  }

  async clearField(ctx: RequestContext, productId: string, field: 'ribbon' | 'brand' | 'options'): Promise<Product> {
    return this.mutate(ctx, productId, (product) => {
      if (field === 'options') {
        product.options = [];
        product.manageVariants = false;
        product.variants = buildVariants([], [], newId);
      } else product[field] = null;
    });
  }

  async getProduct(ctx: RequestContext, productId: string): Promise<Product> {
    const product = await store.findProduct(ctx, productId);
    if (!product || (isShopper(ctx) && !product.visible)) throw notFound(productId);
    return product;
  }

  /**
   * `stock` narrows the query to products in stock, out of stock (stock.inStock as Stores v1 shows
   * it), or tracked products at or below `lowStockAtMost` units (the lowest variant's, when variants
   * are managed). The back office's own filter: the wire's product query has no stock field.
   */
  async queryProducts(ctx: RequestContext, query: PageQuery, stock?: StockFilter, text?: string): Promise<Page<Product>> {
    const q = await this.productQuery(ctx, query, stock, text);
    const { limit, offset } = readPaging(query.paging);
    const page = { where: q.where, params: q.params, join: q.join, orderBy: q.order, limit, offset };
    const { products, total } = await this.readSearching(ctx, q.join !== '', (c) => store.queryProducts(c, page));
    return { items: products, total, limit, offset };
  }

  /** productsV3.searchProducts' aggregations over the products the same query finds: a0, a1, … */
  async aggregateProducts(ctx: RequestContext, query: PageQuery, text: string | undefined, aggregations: readonly V3Aggregation[]): Promise<Record<string, unknown>> {
    const q = await this.productQuery(ctx, query, undefined, text);
    const sql = aggregationsSql(aggregations, `FROM products p ${q.join} WHERE p.site_id = $1 AND ${q.where}`, q.params, currencyExponent(await this.currency(ctx.siteId)));
    return this.readSearching(ctx, q.join !== '', async (c) => (await c.db.query(sql, q.params))[0]);
  }

  /** A product query's WHERE, ORDER BY and (with search text) the catalog search's join. */
  private async productQuery(ctx: RequestContext, query: PageQuery, stock: StockFilter | undefined, text: string | undefined) {
    const fields = productFields(await this.currency(ctx.siteId));
    const params: unknown[] = [ctx.siteId];
    let where: string;
    let order: string;
    let sorted: boolean;
    try {
      where = compileFilter(query.filter, fields, params);
      const keys = parseSort(query.sort, fields);
      sorted = keys.length > 0;
      order = orderBy(keys, fields, 'p.product_id');
    } catch (error) {
      return filterError(error);
    }
    if (isShopper(ctx)) where = `p.visible AND ${where}`;
    if (stock) where = `${stockCondition(stock, params)} AND ${where}`;
    if (text === undefined || !hasSearchText(text)) return { where, params, order, join: '' };
    // The catalog search's matches, in its relevance order unless the query sorts.
    const join = searchJoin(params, text, isShopper(ctx));
    return { where, params, join, order: sorted ? order : SEARCH_JOIN_ORDER };
  }

  /** A read that joins the catalog search runs in a transaction that sets its fuzzy threshold. */
  private async readSearching<T>(ctx: RequestContext, searching: boolean, read: (ctx: RequestContext) => Promise<T>): Promise<T> {
    if (!searching) return read(ctx);
    return withTransaction(ctx, async (tx) => {
      await searchStore.setFuzzyThreshold(tx);
      return read(tx);
    });
  }

  /** The ribbons or brands on the site's products (the V3 ribbons and brands view). */
  async productLabels(ctx: RequestContext, field: 'ribbon' | 'brand'): Promise<{ name: string; count: number }[]> {
    return store.productLabels(ctx, field, isShopper(ctx));
  }

  /** Which choices can still be bought given the ones picked so far, and the variant they make. */
  async optionsAvailability(ctx: RequestContext, productId: string, picked: Record<string, string>) {
    const product = await this.getProduct(ctx, productId);
    const matches = (v: Variant, choices: Record<string, string>) => Object.entries(choices).every(([k, val]) => v.choices[k] === val);
    const buyable = (v: Variant) => v.visible && stockOf(product, v).inStock;
    const options = product.options.map((option) => ({
      ...option,
      choices: option.choices.map((choice) => {
        const others = Object.fromEntries(Object.entries(picked).filter(([k]) => k !== option.name));
        const inStock = product.variants.some((v) => matches(v, { ...others, [option.name]: choice.value }) && buyable(v));
        return { ...choice, inStock: inStock && choice.inStock };
      }),
    }));
    const complete = product.options.every((o) => picked[o.name] !== undefined);
    const selected = complete ? product.variants.find((v) => matches(v, picked) && Object.keys(v.choices).length === Object.keys(picked).length) : undefined;
    return { product, options, selected, availableForPurchase: selected ? buyable(selected) : false };
  }

  async queryVariants(ctx: RequestContext, productId: string, input: { choices?: Record<string, string>; variantIds?: string[]; paging?: PageQuery['paging'] }) {
    const product = await this.getProduct(ctx, productId);
    const { limit, offset } = readPaging(input.paging);
    let variants = product.variants.filter((v) => !isShopper(ctx) || v.visible);
    if (input.variantIds?.length) variants = variants.filter((v) => input.variantIds?.includes(v.id));
    if (input.choices) {
      const wanted = Object.entries(input.choices);
      variants = variants.filter((v) => wanted.every(([k, val]) => v.choices[k] === val));
    }
    return { product, variants: variants.slice(offset, offset + limit), total: variants.length, limit, offset };
  }

  // Collections ---------------------------------------------------------------------------------

  async createCollection(ctx: RequestContext, input: CollectionInput): Promise<Collection> {
    if (!input.name?.trim()) throw ApiError.validation([{ field: 'collection.name', rule: 'REQUIRED_FIELD', description: 'a collection needs a name' }]);
    const name = input.name.trim();
    const now = ctx.now();
    const collection: Collection = {
      id: newId(),
      slug: input.slug ?? slugify(name),
      name,
      description: input.description ?? null,
      visible: input.visible ?? true,
      media: input.media ?? null,
      numberOfProducts: 0,
      createdDate: now,
      updatedDate: now,
    };
    await withTransaction(ctx, async (tx) => {
      try {
        await store.insertCollection(tx, collection);
      } catch (error) {
        if (isUniqueViolation(error, 'product_collections_by_slug')) throw new ApiError(409, 'DUPLICATE_SLUG', `The slug "${collection.slug}" is taken`, { slug: collection.slug });
        throw error;
      }
      await event(tx, { type: 'collection.created', entityType: 'collection', entityId: collection.id, payload: { collectionId: collection.id, name } });
    });
    return collection;
  }

  async updateCollection(ctx: RequestContext, collectionId: string, input: CollectionInput): Promise<Collection> {
    const existing = await store.findCollection(ctx, { id: collectionId });
    if (!existing) throw ApiError.notFound('COLLECTION_NOT_FOUND', `Collection ${collectionId} was not found`, { collectionId });
    const updated: Collection = {
      ...existing,
      ...(input.name !== undefined && { name: input.name.trim() || existing.name }),
      ...(input.slug !== undefined && { slug: input.slug }),
      ...(input.description !== undefined && { description: input.description }),
      ...(input.visible !== undefined && { visible: input.visible }),
      ...(input.media !== undefined && { media: input.media }),
      updatedDate: ctx.now(),
    };
    await withTransaction(ctx, async (tx) => {
      try {
        await store.updateCollection(tx, updated);
      } catch (error) {
        if (isUniqueViolation(error, 'product_collections_by_slug')) throw new ApiError(409, 'DUPLICATE_SLUG', `The slug "${updated.slug}" is taken`, { slug: updated.slug });
        throw error;
      }
      await event(tx, { type: 'collection.updated', entityType: 'collection', entityId: collectionId, payload: { collectionId } });
    });
    return updated;
  }

  async deleteCollection(ctx: RequestContext, collectionId: string): Promise<void> {
    if (collectionId === ALL_PRODUCTS_COLLECTION_ID) throw new ApiError(400, 'COLLECTION_NOT_DELETABLE', 'The All Products collection cannot be deleted');
    await withTransaction(ctx, async (tx) => {
      if (!(await store.deleteCollection(tx, collectionId))) throw ApiError.notFound('COLLECTION_NOT_FOUND', `Collection ${collectionId} was not found`, { collectionId });
      await event(tx, { type: 'collection.deleted', entityType: 'collection', entityId: collectionId, payload: { collectionId } });
    });
  }

  async getCollection(ctx: RequestContext, by: { id: string } | { slug: string }): Promise<Collection> {
    const collection = await store.findCollection(ctx, by);
    if (!collection || (isShopper(ctx) && !collection.visible)) {
      throw ApiError.notFound('COLLECTION_NOT_FOUND', `Collection ${'id' in by ? by.id : by.slug} was not found`, by);
    }
    return collection;
  }

  async queryCollections(ctx: RequestContext, query: PageQuery): Promise<Page<Collection>> {
    const params: unknown[] = [ctx.siteId];
    let where: string;
    let order: string;
    try {
      where = compileFilter(query.filter, COLLECTION_FIELDS, params);
      order = orderBy(parseSort(query.sort, COLLECTION_FIELDS), COLLECTION_FIELDS, 'c.collection_id');
    } catch (error) {
      return filterError(error);
    }
    if (isShopper(ctx)) where = `c.visible AND ${where}`;
    const { limit, offset } = readPaging(query.paging);
    const { collections, total } = await store.queryCollections(ctx, { where, params, orderBy: order, limit, offset });
    return { items: collections, total, limit, offset };
  }

  async addProductsToCollection(ctx: RequestContext, collectionId: string, productIds: string[]): Promise<void> {
    await this.collectionMembership(ctx, collectionId, productIds, 'add');
  }

  async removeProductsFromCollection(ctx: RequestContext, collectionId: string, productIds: string[]): Promise<void> {
    await this.collectionMembership(ctx, collectionId, productIds, 'remove');
  }

  private async collectionMembership(ctx: RequestContext, collectionId: string, productIds: string[], action: 'add' | 'remove'): Promise<void> {
    if (collectionId === ALL_PRODUCTS_COLLECTION_ID) throw new ApiError(400, 'COLLECTION_NOT_EDITABLE', 'Every product is in All Products');
    await withTransaction(ctx, async (tx) => {
      if (!(await store.findCollection(tx, { id: collectionId }))) {
        throw ApiError.notFound('COLLECTION_NOT_FOUND', `Collection ${collectionId} was not found`, { collectionId });
      }
      if (action === 'add') {
        const unique = [...new Set(productIds)];
        const existing = await store.existingProductIds(tx, unique);
        const unknown = unique.filter((id) => !existing.has(id));
        if (unknown.length) throw new ApiError(404, 'PRODUCT_NOT_FOUND', `Unknown products: ${unknown.join(', ')}`, { productIds: unknown });
        await store.addProductsToCollection(tx, collectionId, unique, ctx.now());
      } else {
        await store.removeProductsFromCollection(tx, collectionId, productIds);
      }
      await event(tx, { type: 'collection.updated', entityType: 'collection', entityId: collectionId, payload: { collectionId, [action === 'add' ? 'addedProductIds' : 'removedProductIds']: productIds } });
    });
  }

  // For cart, checkout and orders -----------------------------------------------------------------

  /**
   * The products line items point at, visible or not (callers decide what a buyer may see).
   * Carts and estimates read them on every call, so outside transactions they come from a cache:
   * a caller that read the products' row versions in its own statement (`versions`: a cart's read
   * does) reuses a kept product while its version is the same, however old (so a shop visited
   * once in minutes does not read its products again, and no server serves a product changed
   * since); other callers reuse one read for PRODUCT_CACHE_MS (like the sites service's). This
   * server's own writes drop entries at once. Inside a transaction (placing an order) they are
   * always read from the database, and stock is checked again under the row lock.
   */
  async productsByIds(ctx: SiteContext, productIds: readonly string[], versions?: Readonly<Record<string, string>>): Promise<Map<string, Product>> {
    const { siteId } = ctx;
    const unique = [...new Set(productIds)];
    if (inTransaction(ctx)) return new Map((await store.findProducts(ctx, unique)).map((p) => [p.id, p]));
    const found = new Map<string, Product>();
    const missing: string[] = [];
    for (const id of unique) {
      const hit = this.cache.current(siteId, id, versions ? (versions[id] ?? null) : undefined);
      if (!hit) missing.push(id);
      else if (hit.product) found.set(id, hit.product);
    }
    if (missing.length) {
      const { generation } = this.cache;
      const rows = new Map((await store.findProductVersions(ctx, missing)).map((read) => [read.product.id, read]));
      // A write that ran meanwhile may have dropped what this read saw: only keep it when none did.
      const keep = generation === this.cache.generation;
      for (const id of missing) {
        const read = rows.get(id);
        if (read) found.set(id, read.product);
        if (keep) this.cache.keep(siteId, id, read);
      }
    }
    return found;
  }

  /** Drops cached products after a write (before and after it commits, so no reader keeps the old one). */
  private forget(siteId: string, productIds: readonly string[]): void {
    this.cache.forget(siteId, productIds);
  }

  /**
   * Sells units inside the caller's transaction: locks the products (in id order), checks every
   * line against what is left, and writes the new stock; nothing changes when one line is short.
   */
  async sellStock(ctx: SiteContext, changes: readonly StockChange[], at: Date): Promise<void> {
    const { siteId } = ctx;
    const locked = await store.lockProducts(ctx, changes.map((c) => c.productId));
    const result = applyStockChanges(new Map(locked.map((p) => [p.id, p])), changes, -1);
    if (!result.ok) {
      const first = result.shortages[0];
      throw new ApiError(409, 'INSUFFICIENT_INVENTORY', first.available > 0
        ? `Only ${first.available} left in stock of product ${first.productId}`
        : `Product ${first.productId} is out of stock`, { shortages: result.shortages });
    }
    this.forget(siteId, result.changed.map((p) => p.id));
    await store.saveStock(ctx, result.changed, at);
    await this.productsSaved(ctx, result.changed);
  }

  /** Registers a hook run in the transaction of every product save but sales (back-in-stock requests). */
  onProductsSaved(hook: ProductsSavedHook): void {
    this.savedHooks.push(hook);
  }

  private async productsSaved(ctx: SiteContext, products: readonly Product[]): Promise<void> {
    for (const hook of this.savedHooks) await hook(ctx, products);
  }

  /** Call after a transaction that sold or returned stock has ended (committed or not). */
  stockSettled(siteId: string, productIds: readonly string[]): void {
    this.forget(siteId, productIds);
  }

  /** Returns units to stock (cancel or refund with restock); products gone since are skipped. */
  async restock(ctx: SiteContext, changes: readonly StockChange[], at: Date): Promise<void> {
    const locked = await store.lockProducts(ctx, changes.map((c) => c.productId));
    const result = applyStockChanges(new Map(locked.map((p) => [p.id, p])), changes, 1);
    if (!result.ok) return;
    this.forget(ctx.siteId, result.changed.map((p) => p.id));
    await store.saveStock(ctx, result.changed, at);
  }

  /** For the back office's bulk edits: changes one product under its row lock (price, weight, ribbon…). */
  async changeProduct(ctx: RequestContext, productId: string, change: (product: Product) => void): Promise<Product> {
    return this.mutate(ctx, productId, change);
  }
}

/** Records a catalog event in the transaction of ctx, for ctx's site. */
function event(ctx: SiteContext, e: Omit<OutboxEvent, 'siteId'>): Promise<string> {
  return recordEvent(ctx, { siteId: ctx.siteId, ...e });
}

// What other services use of this one's modules: they import service.ts only.
export { STORES_APP_ID, discountedPrice, isStoresAppId, lineKey, resolveVariant, stockOf, variantPrice, variantSku, variantWeight } from './products.js';
export type { CatalogOptions, MediaItem, Product, StockChange } from './products.js';
export { absoluteUrl } from './wire.js';
// For the back office's imports and exports (services/backoffice).
export type { ProductPatch } from './wire.js';
export * as catalogBackOffice from './back-office.js';
