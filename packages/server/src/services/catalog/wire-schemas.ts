// The Stores v1 product as toWireProduct writes it: it writes the back office's product query
// (/bodega/v1/products/query), documents it (openapi.json) and is the SDK's Product type.
import { Type } from 'typebox';
import { IntegerOrNull, oneOf, Timestamp } from '../../platform/wire-schema.js';

export const ProductPriceData = Type.Object({
  currency: Type.String(),
  price: Type.Number(),
  discountedPrice: Type.Number(),
  formatted: Type.Object({ price: Type.String(), discountedPrice: Type.String() }),
}, { title: 'ProductPriceData' });

const Range = Type.Object({ minValue: Type.Number(), maxValue: Type.Number() });
const Size = { url: Type.String(), width: Type.Integer(), height: Type.Integer() };

export const ProductMediaItem = Type.Object({
  id: Type.String(),
  mediaType: oneOf(['image'] as const),
  title: Type.String(),
  image: Type.Object({ ...Size, altText: Type.Optional(Type.String()) }),
  thumbnail: Type.Object(Size),
}, { title: 'ProductMediaItem' });

export const ProductChoice = Type.Object({
  value: Type.String(),
  description: Type.String({ description: 'For color options, the color code.' }),
  inStock: Type.Boolean(),
  visible: Type.Boolean(),
  media: Type.Object({ mainMedia: Type.Optional(ProductMediaItem), items: Type.Array(ProductMediaItem) }, { description: 'The pictures shown when this choice is picked.' }),
}, { title: 'ProductChoice' });

export const ProductOption = Type.Object({
  optionType: oneOf(['drop_down', 'color'] as const),
  name: Type.String(),
  choices: Type.Array(ProductChoice),
}, { title: 'ProductOption' });

export const ProductVariant = Type.Object({
  id: Type.String(),
  choices: Type.Record(Type.String(), Type.String(), { description: 'Option name → choice value.' }),
  variant: Type.Object({
    priceData: ProductPriceData,
    convertedPriceData: ProductPriceData,
    weight: Type.Number(),
    sku: Type.Optional(Type.String()),
    visible: Type.Boolean(),
  }),
  stock: Type.Object({ trackQuantity: Type.Boolean(), quantity: Type.Optional(IntegerOrNull), inStock: Type.Boolean() }),
}, { title: 'ProductVariant' });

export const Product = Type.Object({
  id: Type.String(),
  name: Type.String(),
  slug: Type.String(),
  visible: Type.Boolean(),
  productType: oneOf(['physical', 'digital'] as const),
  description: Type.String(),
  sku: Type.Optional(Type.String()),
  weight: Type.Number(),
  weightRange: Range,
  stock: Type.Object({
    trackInventory: Type.Boolean(),
    quantity: Type.Optional(IntegerOrNull),
    inStock: Type.Boolean(),
    inventoryStatus: oneOf(['IN_STOCK', 'OUT_OF_STOCK', 'PARTIALLY_OUT_OF_STOCK'] as const),
  }),
  price: ProductPriceData,
  priceData: ProductPriceData,
  convertedPriceData: ProductPriceData,
  priceRange: { ...Range, description: 'The lowest and highest price a shopper pays over the variants (after the product\'s discount).' },
  additionalInfoSections: Type.Array(Type.Object({ title: Type.String(), description: Type.String() })),
  ribbons: Type.Array(Type.Object({ text: Type.String() })),
  ribbon: Type.Optional(Type.String()),
  brand: Type.Optional(Type.String()),
  media: Type.Object({ mainMedia: Type.Optional(ProductMediaItem), items: Type.Array(ProductMediaItem) }),
  customTextFields: Type.Array(Type.Object({ title: Type.String(), maxLength: Type.Integer(), mandatory: Type.Boolean() })),
  manageVariants: Type.Boolean(),
  productOptions: Type.Array(ProductOption),
  productPageUrl: Type.Object({ base: Type.String(), path: Type.String() }),
  numericId: Type.String(),
  inventoryItemId: Type.String(),
  discount: Type.Object({ type: oneOf(['NONE', 'AMOUNT', 'PERCENT'] as const), value: Type.Number() }),
  collectionIds: Type.Array(Type.String()),
  variants: Type.Array(ProductVariant),
  lastUpdated: Timestamp,
  createdDate: Timestamp,
}, { title: 'Product' });

export const ProductsPage = Type.Object({
  products: Type.Array(Product),
  metadata: Type.Object({ count: Type.Integer(), offset: Type.Integer(), total: Type.Integer() }),
}, { title: 'QueryProductsResponse' });

// The Stores v1 answers (catalog reader and writer): they write the wire and are the SDK's types.

export const ProductResponse = Type.Object({ product: Product }, { title: 'ProductResponse' });

/** The older product query: `metadata.items` and `totalResults`. */
const ItemsMetadata = Type.Object({ items: Type.Integer(), offset: Type.Integer() });
const OffsetMetadata = Type.Object({ count: Type.Integer(), offset: Type.Integer(), total: Type.Integer() });

export const QueryProductsV1Response = Type.Object({
  products: Type.Array(Product),
  metadata: ItemsMetadata,
  totalResults: Type.Integer(),
}, { title: 'QueryProductsV1Response' });

export const VariantsResponse = Type.Object({ variants: Type.Array(ProductVariant) }, { title: 'UpdateVariantsResponse' });

export const QueryVariantsResponse = Type.Object({
  variants: Type.Array(ProductVariant),
  metadata: ItemsMetadata,
  totalResults: Type.Integer(),
}, { title: 'QueryProductVariantsResponse' });

const AvailabilityChoice = Type.Object({
  value: Type.String(),
  description: Type.String(),
  inStock: Type.Boolean({ description: 'Whether a visible variant with this choice (and the other picked ones) is in stock.' }),
  visible: Type.Boolean(),
  mediaIds: Type.Optional(Type.Array(Type.String())),
});

export const SelectedVariant = Type.Object({
  price: ProductPriceData,
  convertedPriceData: ProductPriceData,
  weight: Type.Number(),
  sku: Type.Optional(Type.String()),
  quantity: Type.Optional(IntegerOrNull),
  inStock: Type.Boolean(),
  visible: Type.Boolean(),
}, { title: 'SelectedVariant' });

export const OptionsAvailabilityResponse = Type.Object({
  selectedVariant: Type.Optional(SelectedVariant),
  media: Type.Object({ mainMedia: Type.Optional(ProductMediaItem), items: Type.Array(ProductMediaItem) }),
  productOptions: Type.Array(Type.Object({ optionType: oneOf(['drop_down', 'color'] as const), name: Type.String(), choices: Type.Array(AvailabilityChoice) })),
  availableForPurchase: Type.Boolean(),
}, { title: 'ProductOptionsAvailabilityResponse', description: 'Which choices can still be bought, given the ones picked; the variant when every option is picked.' });

export const StoresCollection = Type.Object({
  id: Type.String(),
  name: Type.String(),
  slug: Type.String(),
  visible: Type.Boolean(),
  numberOfProducts: Type.Integer(),
  description: Type.Optional(Type.String()),
  media: Type.Object({
    mainMedia: Type.Optional(Type.Object({
      id: Type.String(),
      mediaType: oneOf(['image'] as const),
      title: Type.String(),
      image: Type.Object({ url: Type.String(), width: Type.Integer(), height: Type.Integer() }),
    })),
    items: Type.Array(ProductMediaItem, { description: 'Always empty: a collection has one picture.' }),
  }),
}, { title: 'StoresCollection' });

export const CollectionResponse = Type.Object({ collection: StoresCollection }, { title: 'CollectionResponse' });

export const QueryCollectionsV1Response = Type.Object({
  collections: Type.Array(StoresCollection),
  metadata: ItemsMetadata,
  totalResults: Type.Integer(),
}, { title: 'QueryCollectionsV1Response' });

export const QueryCollectionsResponse = Type.Object({
  collections: Type.Array(StoresCollection),
  metadata: OffsetMetadata,
}, { title: 'QueryCollectionsResponse' });

/** The answer of a write that returns nothing. */
export const Empty = Type.Object({});
