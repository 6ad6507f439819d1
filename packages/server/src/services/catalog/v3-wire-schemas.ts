// The Stores V3 answers (@wix/stores productsV3, readOnlyVariantsV3, inventoryItemsV3,
// catalogVersioning, ribbons, brands, customizations) and the Stores tree of @wix/categories: the
// schemas they are written through and documented by. Properties are listed in the order
// v3-wire.ts writes them (fast-json-stringify writes the schema's order).
import { Type, type Static, type TSchema } from 'typebox';
import { oneOf, Timestamp } from '../../platform/wire-schema.js';

const Revision = Type.String({ description: 'int64 as a decimal string' });
const Empty = Type.Object({});
/** What every product, inventory item and category starts with. */
const stamped = { id: Type.String(), revision: Revision, createdDate: Timestamp, updatedDate: Timestamp };

export const V3Money = Type.Object({ amount: Type.String(), formattedAmount: Type.String() }, { title: 'V3Money' });

const PagingMetadata = Type.Object({
  count: Type.Integer(),
  cursors: Type.Object({ next: Type.Optional(Type.String()), prev: Type.Optional(Type.String()) }),
  hasNext: Type.Boolean(),
}, { title: 'V3PagingMetadata' });

const V3Image = Type.Object({
  id: Type.String(),
  url: Type.String(),
  width: Type.Number(),
  height: Type.Number(),
  altText: Type.Optional(Type.String()),
});

export const V3MediaItem = Type.Object({
  id: Type.String(),
  url: Type.String(),
  image: V3Image,
  mediaType: oneOf(['IMAGE'] as const),
  altText: Type.Optional(Type.String()),
  displayName: Type.String(),
}, { title: 'V3MediaItem' });

const RENDER_TYPES = ['SWATCH_CHOICES', 'TEXT_CHOICES'] as const;
const CHOICE_TYPES = ['ONE_COLOR', 'CHOICE_TEXT'] as const;
const PRODUCT_TYPES = ['PHYSICAL', 'DIGITAL'] as const;

export const V3OptionChoice = Type.Object({
  optionChoiceIds: Type.Object({ optionId: Type.String(), choiceId: Type.String() }),
  optionChoiceNames: Type.Object({ optionName: Type.String(), choiceName: Type.String(), renderType: oneOf(RENDER_TYPES) }),
}, { title: 'V3OptionChoice' });

/** A variant's own fields, as a product's variant and as a read-only variant carry them. */
const variantFields = {
  id: Type.String(),
  visible: Type.Boolean(),
  sku: Type.Optional(Type.String()),
  price: Type.Object({ actualPrice: V3Money, compareAtPrice: Type.Optional(V3Money) }),
  physicalProperties: Type.Optional(Type.Object({ weight: Type.Optional(Type.Number()) })),
  digitalProperties: Type.Optional(Empty),
  inventoryStatus: Type.Object({ inStock: Type.Boolean(), preorderEnabled: Type.Boolean() }),
};

export const V3Variant = Type.Object({ ...variantFields, choices: Type.Array(V3OptionChoice) }, { title: 'V3Variant' });

const CategoriesInfo = Type.Object({ categories: Type.Array(Type.Object({ id: Type.String(), index: Type.Integer() })) });
const PriceRange = Type.Object({ minValue: V3Money, maxValue: V3Money });

export const V3Product = Type.Object({
  ...stamped,
  name: Type.String(),
  slug: Type.String(),
  url: Type.Optional(Type.Object({ relativePath: Type.String(), url: Type.String() })),
  plainDescription: Type.Optional(Type.String()),
  visible: Type.Boolean(),
  visibleInPos: Type.Boolean(),
  media: Type.Object({
    main: Type.Optional(V3MediaItem),
    itemsInfo: Type.Optional(Type.Object({ items: Type.Array(V3MediaItem) })),
  }),
  options: Type.Array(Type.Object({
    id: Type.String(),
    name: Type.String(),
    optionRenderType: oneOf(RENDER_TYPES),
    choicesSettings: Type.Object({
      choices: Type.Array(Type.Object({
        choiceId: Type.String(),
        choiceType: oneOf(CHOICE_TYPES),
        name: Type.String(),
        colorCode: Type.Optional(Type.String()),
        inStock: Type.Boolean(),
        visible: Type.Boolean(),
        linkedMedia: Type.Optional(Type.Array(V3MediaItem)),
      }, { title: 'V3Choice' })),
    }),
  }, { title: 'V3Option' })),
  modifiers: Type.Array(Type.Object({
    id: Type.String(),
    name: Type.String(),
    modifierRenderType: oneOf(['FREE_TEXT'] as const),
    mandatory: Type.Boolean(),
    freeTextSettings: Type.Object({ minCharCount: Type.Integer(), maxCharCount: Type.Integer(), title: Type.String(), key: Type.String() }),
  }, { title: 'V3Modifier' })),
  brand: Type.Optional(Type.Object({ id: Type.String(), name: Type.String() })),
  ribbon: Type.Optional(Type.Object({ id: Type.String(), name: Type.String() })),
  infoSections: Type.Optional(Type.Array(Type.Object({ id: Type.String(), uniqueName: Type.String(), title: Type.String(), plainDescription: Type.String() }))),
  directCategoriesInfo: Type.Optional(CategoriesInfo),
  allCategoriesInfo: Type.Optional(CategoriesInfo),
  mainCategoryId: Type.String(),
  actualPriceRange: Type.Optional(PriceRange),
  compareAtPriceRange: Type.Optional(PriceRange),
  inventory: Type.Object({
    availabilityStatus: oneOf(['IN_STOCK', 'OUT_OF_STOCK', 'PARTIALLY_OUT_OF_STOCK'] as const),
    preorderStatus: oneOf(['DISABLED'] as const),
    preorderAvailability: oneOf(['ALL_VARIANTS'] as const),
  }),
  productType: oneOf(PRODUCT_TYPES),
  physicalProperties: Type.Optional(Empty),
  digitalProperties: Type.Optional(Empty),
  currency: Type.Optional(Type.String()),
  variantsInfo: Type.Optional(Type.Object({ variants: Type.Array(V3Variant) })),
  variantSummary: Type.Object({ variantCount: Type.Integer() }),
}, { title: 'V3Product', description: 'url, plainDescription, media.itemsInfo, infoSections, the categories info and currency come when `fields` asks for them; variantsInfo on get, create and update.' });
export type WireV3Product = Static<typeof V3Product>;

export const V3ProductResponse = Type.Object({ product: V3Product }, { title: 'V3ProductResponse' });

const Aggregation = Type.Object({
  name: Type.String(),
  type: oneOf(['VALUE', 'RANGE', 'SCALAR'] as const),
  fieldPath: Type.String(),
  values: Type.Optional(Type.Object({
    results: Type.Array(Type.Object({ value: Type.Unsafe<string | number>({ type: ['string', 'number'] }), count: Type.Integer() })),
  })),
  ranges: Type.Optional(Type.Object({
    results: Type.Array(Type.Object({ from: Type.Optional(Type.Number()), to: Type.Optional(Type.Number()), count: Type.Integer() })),
  })),
  scalar: Type.Optional(Type.Object({ type: oneOf(['MIN', 'MAX', 'COUNT_DISTINCT'] as const), value: Type.Number() })),
}, { title: 'V3AggregationResult' });

export const V3ProductsPage = Type.Object({
  products: Type.Array(V3Product),
  pagingMetadata: PagingMetadata,
  aggregationData: Type.Optional(Type.Object({ results: Type.Array(Aggregation) })),
}, { title: 'V3ProductsPage' });

const ItemError = Type.Object({ code: Type.String(), description: Type.String() });
const ItemMetadata = Type.Object({
  id: Type.Optional(Type.String()),
  originalIndex: Type.Integer(),
  success: Type.Boolean(),
  error: Type.Optional(ItemError),
}, { title: 'V3ItemMetadata' });
const BulkActionMetadata = Type.Object({ totalSuccesses: Type.Integer(), totalFailures: Type.Integer(), undetailedFailures: Type.Integer() });

/** A bulk call's answer: one result per item given, in order (with the item when returnEntity asks). */
function bulkAnswer<T extends TSchema>(item: T | undefined, title: string) {
  const result = item === undefined ? Type.Object({ itemMetadata: ItemMetadata }) : Type.Object({ itemMetadata: ItemMetadata, item: Type.Optional(item) });
  return Type.Object({ results: Type.Array(result), bulkActionMetadata: BulkActionMetadata }, { title });
}

export const V3BulkProductsResponse = bulkAnswer(V3Product, 'V3BulkProductsResponse');
export const V3BulkResponse = bulkAnswer(undefined, 'V3BulkResponse');
export const CountResponse = Type.Object({ count: Type.Integer() });
export const DeletedResponse = Empty;
export const CatalogVersionResponse = Type.Object({ catalogVersion: oneOf(['V1_CATALOG', 'V3_CATALOG'] as const) });

const TreeReference = Type.Object({ appNamespace: Type.String() }, { title: 'TreeReference' });
export const AllProductsCategory = Type.Object({ categoryId: Type.String(), treeReference: TreeReference });

export type WireV3Variant = Static<typeof V3Variant>;

export const V3ReadOnlyVariant = Type.Object({
  ...variantFields,
  variantId: Type.String(),
  optionChoices: Type.Array(V3OptionChoice),
  productData: Type.Object({
    productId: Type.String(),
    name: Type.String(),
    productType: oneOf(PRODUCT_TYPES),
    slug: Type.String(),
    visible: Type.Boolean(),
    visibleInPos: Type.Boolean(),
    mainCategoryId: Type.String(),
    revision: Revision,
    currency: Type.Optional(Type.String()),
  }),
}, { title: 'V3ReadOnlyVariant' });
export type WireV3ReadOnlyVariant = Static<typeof V3ReadOnlyVariant>;
export const V3VariantsPage = Type.Object({ variants: Type.Array(V3ReadOnlyVariant), pagingMetadata: PagingMetadata }, { title: 'V3VariantsPage' });

export const V3InventoryItem = Type.Object({
  ...stamped,
  variantId: Type.String(),
  locationId: Type.String(),
  productId: Type.String(),
  trackQuantity: Type.Boolean(),
  quantity: Type.Optional(Type.Integer()),
  inStock: Type.Boolean(),
  availabilityStatus: oneOf(['IN_STOCK', 'OUT_OF_STOCK'] as const),
  preorderInfo: Type.Object({ enabled: Type.Boolean() }),
  product: Type.Object({
    name: Type.String(),
    directCategoryIds: Type.Array(Type.String()),
    variantName: Type.Optional(Type.String()),
    variantSku: Type.Optional(Type.String()),
    variantVisible: Type.Boolean(),
  }),
}, { title: 'V3InventoryItem', description: 'One variant\'s stock; its id is `<productId>_<variantId>`.' });
export type WireV3InventoryItem = Static<typeof V3InventoryItem>;
export const V3InventoryItemResponse = Type.Object({ inventoryItem: V3InventoryItem });
export const V3InventoryItemsPage = Type.Object({ inventoryItems: Type.Array(V3InventoryItem), pagingMetadata: PagingMetadata }, { title: 'V3InventoryItemsPage' });
export const V3BulkInventoryResponse = bulkAnswer(V3InventoryItem, 'V3BulkInventoryItemsResponse');

export const V3Label = Type.Object({ id: Type.String(), revision: Type.String(), name: Type.String(), assignedProductCount: Type.Integer() }, { title: 'V3Label' });
export type WireV3Label = Static<typeof V3Label>;
type WireV3Paging = Static<typeof PagingMetadata>;
/**
 * A ribbon's or a brand's answers, keyed by the kind's name (`{ribbon}`, `{ribbons, pagingMetadata}`):
 * one schema each for the two kinds, so the handlers' type is the keyed record.
 */
export function labelSchemas(kind: 'ribbon' | 'brand', plural: 'ribbons' | 'brands') {
  return {
    one: Type.Unsafe<Record<string, WireV3Label>>(Type.Object({ [kind]: V3Label })),
    page: Type.Unsafe<Record<string, WireV3Label[] | WireV3Paging>>(Type.Object({ [plural]: Type.Array(V3Label), pagingMetadata: PagingMetadata })),
  };
}

export const V3Customization = Type.Object({
  id: Type.String(),
  revision: Type.String(),
  name: Type.String(),
  customizationType: oneOf(['PRODUCT_OPTION', 'MODIFIER'] as const),
  customizationRenderType: oneOf([...RENDER_TYPES, 'FREE_TEXT'] as const),
  choicesSettings: Type.Optional(Type.Object({
    choices: Type.Array(Type.Object({
      id: Type.String(),
      choiceType: oneOf(CHOICE_TYPES),
      key: Type.String(),
      name: Type.String(),
      colorCode: Type.Optional(Type.String()),
    })),
  })),
  freeTextInput: Type.Optional(Type.Object({ minCharCount: Type.Integer(), maxCharCount: Type.Integer(), title: Type.String(), key: Type.String() })),
  assignedProductsCount: Type.Integer(),
}, { title: 'V3Customization', description: 'An option (choicesSettings) or a modifier (freeTextInput), merged by name over the products.' });
export type WireV3Customization = Static<typeof V3Customization>;
export const V3CustomizationResponse = Type.Object({ customization: V3Customization });
export const V3CustomizationsPage = Type.Object({ customizations: Type.Array(V3Customization), pagingMetadata: PagingMetadata });

export const V3Category = Type.Object({
  ...stamped,
  name: Type.String(),
  slug: Type.String(),
  description: Type.Optional(Type.String()),
  visible: Type.Boolean(),
  itemCounter: Type.Integer(),
  image: Type.Optional(Type.Object({ id: Type.String(), url: Type.String(), width: Type.Number(), height: Type.Number() })),
  breadcrumbsInfo: Type.Object({ breadcrumbs: Type.Array(Type.Unknown(), { maxItems: 0, description: 'Always empty: categories are not nested here.' }) }),
  treeReference: TreeReference,
}, { title: 'V3Category' });
export type WireV3Category = Static<typeof V3Category>;
export const V3CategoryResponse = Type.Object({ category: V3Category }, { title: 'V3CategoryResponse' });
export const V3CategoriesPage = Type.Object({ categories: Type.Array(V3Category), pagingMetadata: PagingMetadata }, { title: 'V3CategoriesPage' });
export const ItemCategories = Type.Object({ directCategoryIds: Type.Array(Type.String()), allCategoryIds: Type.Array(Type.String()) });
export const CategoryItemsPage = Type.Object({
  items: Type.Array(Type.Object({ catalogItemId: Type.String(), appId: Type.String() })),
  pagingMetadata: PagingMetadata,
});
