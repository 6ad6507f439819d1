// SQL for products, product collections and the commerce counters; nothing else.
import type { SiteContext } from '../../platform/context.js';
import { ALL_PRODUCTS_COLLECTION_ID, discountedPrice, type Product, type ProductOption, type Variant } from './products.js';

interface VariantJson {
  id: string;
  choices: Record<string, string>;
  price: string | null;
  weight: string | null;
  sku: string | null;
  visible: boolean;
  quantity: number | null;
  inStock: boolean;
}

/** The product's document column: everything that is not queried on its own. */
interface ProductDocJson {
  description: string;
  weight: string | null;
  discount: Product['discount'];
  trackInventory: boolean;
  quantity: number | null;
  inStock: boolean;
  manageVariants: boolean;
  options: ProductOption[];
  variants: VariantJson[];
  media: Product['media'];
  ribbon: string | null;
  brand: string | null;
  additionalInfoSections: Product['additionalInfoSections'];
  customTextFields: Product['customTextFields'];
}

export interface ProductRow {
  product_id: string;
  numeric_id: number | string;
  slug: string;
  name: string;
  product_type: Product['productType'];
  visible: boolean;
  sku: string | null;
  price_minor: number | string;
  doc: ProductDocJson;
  collection_ids: string[];
  created_at: Date;
  updated_at: Date;
  [key: string]: unknown;
}

/**
 * A product row's columns, for a statement whose $1 is the site id (every one of them): the
 * collections subquery names the site as $1, not through p, so Citus sees it runs on one shard.
 */
export const PRODUCT_COLUMNS = `p.product_id, p.numeric_id, p.slug, p.name, p.product_type, p.visible, p.sku, p.price_minor, p.doc,
  ARRAY(SELECT cp.collection_id FROM collection_products cp WHERE cp.site_id = $1 AND cp.product_id = p.product_id ORDER BY cp.added_at, cp.collection_id) AS collection_ids,
  p.created_at, p.updated_at`;

function toVariant(json: VariantJson): Variant {
  return { ...json, price: json.price === null ? null : BigInt(json.price) };
}

export function toProduct(row: ProductRow): Product {
  const doc = row.doc;
  return {
    id: row.product_id,
    numericId: Number(row.numeric_id),
    slug: row.slug,
    name: row.name,
    description: doc.description,
    productType: row.product_type,
    visible: row.visible,
    sku: row.sku,
    weight: doc.weight,
    price: BigInt(row.price_minor),
    discount: doc.discount,
    trackInventory: doc.trackInventory,
    quantity: doc.quantity,
    inStock: doc.inStock,
    manageVariants: doc.manageVariants,
    options: doc.options,
    variants: doc.variants.map(toVariant),
    media: doc.media,
    ribbon: doc.ribbon,
    brand: doc.brand,
    additionalInfoSections: doc.additionalInfoSections,
    customTextFields: doc.customTextFields,
    collectionIds: row.collection_ids ?? [],
    createdDate: new Date(row.created_at),
    updatedDate: new Date(row.updated_at),
  };
}

function toDoc(product: Product): string {
  const doc: ProductDocJson = {
    description: product.description,
    weight: product.weight,
    discount: product.discount,
    trackInventory: product.trackInventory,
    quantity: product.quantity,
    inStock: product.inStock,
    manageVariants: product.manageVariants,
    options: product.options,
    variants: product.variants.map((v) => ({ ...v, price: v.price === null ? null : v.price.toString() })),
    media: product.media,
    ribbon: product.ribbon,
    brand: product.brand,
    additionalInfoSections: product.additionalInfoSections,
    customTextFields: product.customTextFields,
  };
  return JSON.stringify(doc);
}

/** The next value of a per-site counter; the row stays locked until the transaction ends. */
export async function nextCounter(ctx: SiteContext, name: string, first: number): Promise<number> {
  const rows = await ctx.db.query<{ value: number | string }>(
    `INSERT INTO commerce_counters (site_id, name, value) VALUES ($1, $2, $3)
     ON CONFLICT (site_id, name) DO UPDATE SET value = commerce_counters.value + 1
     RETURNING value`,
    [ctx.siteId, name, first],
  );
  return Number(rows[0].value);
}

export async function insertProduct(ctx: SiteContext, product: Product): Promise<void> {
  await ctx.db.query(
    `INSERT INTO products (site_id, product_id, numeric_id, slug, name, product_type, visible, sku, price_minor, discounted_minor, doc, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, $12, $12)`,
    [ctx.siteId, product.id, product.numericId, product.slug, product.name, product.productType, product.visible, product.sku,
      product.price.toString(), discountedPrice(product.price, product.discount).toString(), toDoc(product), product.createdDate],
  );
  await ctx.db.query(
    `INSERT INTO collection_products (site_id, collection_id, product_id, added_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
    [ctx.siteId, ALL_PRODUCTS_COLLECTION_ID, product.id, product.createdDate],
  );
}

export async function updateProduct(ctx: SiteContext, product: Product): Promise<void> {
  await ctx.db.query(
    `UPDATE products SET slug = $3, name = $4, product_type = $5, visible = $6, sku = $7, price_minor = $8, discounted_minor = $9,
       doc = $10::jsonb, updated_at = $11
     WHERE site_id = $1 AND product_id = $2`,
    [ctx.siteId, product.id, product.slug, product.name, product.productType, product.visible, product.sku,
      product.price.toString(), discountedPrice(product.price, product.discount).toString(), toDoc(product), product.updatedDate],
  );
}

/** Writes the documents of products whose stock changed (they are locked by the caller). */
export async function saveStock(ctx: SiteContext, products: readonly Product[], at: Date): Promise<void> {
  if (products.length === 0) return;
  await ctx.db.query(
    `UPDATE products p SET doc = d.doc, updated_at = $4
     FROM unnest($2::text[], $3::jsonb[]) AS d(product_id, doc)
     WHERE p.site_id = $1 AND p.product_id = d.product_id`,
    [ctx.siteId, products.map((p) => p.id), products.map(toDoc), at],
  );
}

export async function deleteProduct(ctx: SiteContext, productId: string): Promise<boolean> {
  const rows = await ctx.db.query('DELETE FROM products WHERE site_id = $1 AND product_id = $2 RETURNING product_id', [ctx.siteId, productId]);
  await ctx.db.query('DELETE FROM collection_products WHERE site_id = $1 AND product_id = $2', [ctx.siteId, productId]);
  return rows.length === 1;
}

export async function findProduct(ctx: SiteContext, productId: string, forUpdate = false): Promise<Product | undefined> {
  const rows = await ctx.db.query<ProductRow>(
    `SELECT ${PRODUCT_COLUMNS} FROM products p WHERE p.site_id = $1 AND p.product_id = $2${forUpdate ? ' FOR UPDATE' : ''}`,
    [ctx.siteId, productId],
  );
  return rows[0] && toProduct(rows[0]);
}

/** Products as line items need them (without their collections, which cost a subquery each). */
export async function findProducts(ctx: SiteContext, productIds: readonly string[]): Promise<Product[]> {
  return (await findProductVersions(ctx, productIds)).map((read) => read.product);
}

/** The products with their row versions (xmin: every change of a product row gives a new one). */
export async function findProductVersions(ctx: SiteContext, productIds: readonly string[]): Promise<{ product: Product; version: string }[]> {
  if (productIds.length === 0) return [];
  const rows = await ctx.db.query<ProductRow & { version: string }>(
    `SELECT p.product_id, p.numeric_id, p.slug, p.name, p.product_type, p.visible, p.sku, p.price_minor, p.doc, p.created_at, p.updated_at, p.xmin::text AS version
     FROM products p WHERE p.site_id = $1 AND p.product_id = ANY($2::text[])`,
    [ctx.siteId, productIds],
  );
  return rows.map((row) => ({ product: toProduct(row), version: row.version }));
}

/** Locks the products in id order (so two orders never wait on each other in a cycle). */
export async function lockProducts(ctx: SiteContext, productIds: readonly string[]): Promise<Product[]> {
  if (productIds.length === 0) return [];
  const rows = await ctx.db.query<ProductRow>(
    `SELECT p.product_id, p.numeric_id, p.slug, p.name, p.product_type, p.visible, p.sku, p.price_minor, p.doc, p.created_at, p.updated_at
     FROM products p WHERE p.site_id = $1 AND p.product_id = ANY($2::text[]) ORDER BY p.product_id FOR UPDATE`,
    [ctx.siteId, productIds],
  );
  return rows.map(toProduct);
}

export async function slugsStartingWith(ctx: SiteContext, base: string): Promise<Set<string>> {
  const rows = await ctx.db.query<{ slug: string }>(
    `SELECT slug FROM products WHERE site_id = $1 AND (slug = $2 OR starts_with(slug, $2 || '-'))`,
    [ctx.siteId, base],
  );
  return new Set(rows.map((r) => r.slug));
}

export async function queryProducts(
  ctx: SiteContext,
  query: { where: string; params: unknown[]; orderBy: string; limit: number; offset: number; join?: string },
): Promise<{ products: Product[]; total: number }> {
  // query.params already starts with the site id as $1; join (the catalog search's) may name more.
  const { where, params, join = '' } = query;
  // The page and the count apart: the page is a short index range (the collection ids are read for
  // its rows only), the count an index-only scan; a window count would build every matching row.
  const rows = await ctx.db.query<ProductRow>(
    `SELECT ${PRODUCT_COLUMNS} FROM products p ${join}
     WHERE p.site_id = $1 AND ${where}
     ORDER BY ${query.orderBy} LIMIT ${query.limit} OFFSET ${query.offset}`,
    params,
  );
  if (query.offset === 0 && rows.length < query.limit) return { products: rows.map(toProduct), total: rows.length };
  const counted = await ctx.db.query<{ total: number | string }>(`SELECT count(*) AS total FROM products p ${join} WHERE p.site_id = $1 AND ${where}`, params);
  return { products: rows.map(toProduct), total: Number(counted[0].total) };
}

// Collections ---------------------------------------------------------------------------------

export interface Collection {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  visible: boolean;
  media: { url: string; width: number; height: number } | null;
  numberOfProducts: number;
  createdDate: Date;
  updatedDate: Date;
}

interface CollectionRow {
  collection_id: string;
  slug: string;
  name: string;
  description: string | null;
  visible: boolean;
  media: Collection['media'];
  number_of_products: number | string;
  created_at: Date;
  updated_at: Date;
  [key: string]: unknown;
}

// Every statement with these columns binds the site as $1; its subquery names $1, not the outer row's
// site_id, which Citus does not follow to one shard (it would ask every shard).
const COLLECTION_COLUMNS = `c.collection_id, c.slug, c.name, c.description, c.visible, c.media, c.created_at, c.updated_at,
  (SELECT count(*) FROM collection_products cp WHERE cp.site_id = $1 AND cp.collection_id = c.collection_id) AS number_of_products`;

function toCollection(row: CollectionRow): Collection {
  return {
    id: row.collection_id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    visible: row.visible,
    media: row.media,
    numberOfProducts: Number(row.number_of_products),
    createdDate: new Date(row.created_at),
    updatedDate: new Date(row.updated_at),
  };
}

export async function insertCollection(ctx: SiteContext, c: Omit<Collection, 'numberOfProducts'>): Promise<void> {
  await ctx.db.query(
    `INSERT INTO product_collections (site_id, collection_id, slug, name, description, visible, media, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $8)`,
    [ctx.siteId, c.id, c.slug, c.name, c.description, c.visible, c.media ? JSON.stringify(c.media) : null, c.createdDate],
  );
}

export async function updateCollection(ctx: SiteContext, c: Omit<Collection, 'numberOfProducts' | 'createdDate'>): Promise<void> {
  await ctx.db.query(
    `UPDATE product_collections SET slug = $3, name = $4, description = $5, visible = $6, media = $7::jsonb, updated_at = $8
     WHERE site_id = $1 AND collection_id = $2`,
    [ctx.siteId, c.id, c.slug, c.name, c.description, c.visible, c.media ? JSON.stringify(c.media) : null, c.updatedDate],
  );
}

export async function deleteCollection(ctx: SiteContext, collectionId: string): Promise<boolean> {
  const rows = await ctx.db.query('DELETE FROM product_collections WHERE site_id = $1 AND collection_id = $2 RETURNING collection_id', [ctx.siteId, collectionId]);
  await ctx.db.query('DELETE FROM collection_products WHERE site_id = $1 AND collection_id = $2', [ctx.siteId, collectionId]);
  return rows.length === 1;
}

export async function findCollection(ctx: SiteContext, by: { id: string } | { slug: string }): Promise<Collection | undefined> {
  const [column, value] = 'id' in by ? ['collection_id', by.id] : ['slug', by.slug];
  const rows = await ctx.db.query<CollectionRow>(`SELECT ${COLLECTION_COLUMNS} FROM product_collections c WHERE c.site_id = $1 AND c.${column} = $2`, [ctx.siteId, value]);
  return rows[0] && toCollection(rows[0]);
}

export async function queryCollections(
  ctx: SiteContext,
  query: { where: string; params: unknown[]; orderBy: string; limit: number; offset: number },
): Promise<{ collections: Collection[]; total: number }> {
  // query.params already starts with the site id as $1.
  const { where, params } = query;
  const rows = await ctx.db.query<CollectionRow & { total: number | string }>(
    `SELECT ${COLLECTION_COLUMNS}, count(*) OVER () AS total FROM product_collections c
     WHERE c.site_id = $1 AND ${where} ORDER BY ${query.orderBy} LIMIT ${query.limit} OFFSET ${query.offset}`,
    params,
  );
  if (rows.length > 0 || query.offset === 0) return { collections: rows.map(toCollection), total: rows.length ? Number(rows[0].total) : 0 };
  const counted = await ctx.db.query<{ total: number | string }>(`SELECT count(*) AS total FROM product_collections c WHERE c.site_id = $1 AND ${where}`, params);
  return { collections: [], total: Number(counted[0].total) };
}

/** Adds the products that exist; returns how many were found. */
export async function addProductsToCollection(ctx: SiteContext, collectionId: string, productIds: readonly string[], at: Date): Promise<number> {
  const rows = await ctx.db.query(
    `INSERT INTO collection_products (site_id, collection_id, product_id, added_at)
     SELECT $1, $2, p.product_id, $4 FROM products p WHERE p.site_id = $1 AND p.product_id = ANY($3::text[])
     ON CONFLICT DO NOTHING RETURNING product_id`,
    [ctx.siteId, collectionId, productIds, at],
  );
  return rows.length;
}

export async function removeProductsFromCollection(ctx: SiteContext, collectionId: string, productIds: readonly string[]): Promise<void> {
  await ctx.db.query('DELETE FROM collection_products WHERE site_id = $1 AND collection_id = $2 AND product_id = ANY($3::text[])', [ctx.siteId, collectionId, productIds]);
}

export async function existingProductIds(ctx: SiteContext, productIds: readonly string[]): Promise<Set<string>> {
  const rows = await ctx.db.query<{ product_id: string }>('SELECT product_id FROM products WHERE site_id = $1 AND product_id = ANY($2::text[])', [ctx.siteId, productIds]);
  return new Set(rows.map((r) => r.product_id));
}

/** The distinct ribbons or brands the site's products carry, with how many products carry each. */
export async function productLabels(ctx: SiteContext, field: 'ribbon' | 'brand', visibleOnly: boolean): Promise<{ name: string; count: number }[]> {
  const rows = await ctx.db.query<{ name: string; count: number | string }>(
    `SELECT p.doc->>'${field === 'ribbon' ? 'ribbon' : 'brand'}' AS name, count(*) AS count FROM products p
     WHERE p.site_id = $1 AND p.doc->>'${field === 'ribbon' ? 'ribbon' : 'brand'}' IS NOT NULL AND ($2::boolean IS FALSE OR p.visible)
     GROUP BY 1 ORDER BY 1`, [ctx.siteId, visibleOnly]);
  return rows.map((r) => ({ name: r.name, count: Number(r.count) }));
}
