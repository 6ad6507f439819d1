// eCommerce wire shared by carts, checkouts and orders: input schemas (addresses, line items,
// merchant discounts), the line-item shape, and the conversions between them. Money is a decimal
// string here, minor units inside.
import { Type, type Static } from 'typebox';
import { ApiError, type FieldViolation } from '../../platform/errors.js';
import { absoluteUrl } from '../catalog/service.js';
import { MoneyError, parseAmount, parseDecimal, formatDecimal, toWireMoney } from '../../platform/money.js';
import type { AvailabilityStatus, ItemType, MerchantDiscount } from './pricing/model.js';
import type { Buyer } from './buyer.js';
import { MAX_LINE_QUANTITY, type CatalogLineInput, type CatalogReference, type CustomLine, type ResolvedLine } from './lines.js';

// Input schemas ---------------------------------------------------------------------------------

const Str = (maxLength: number) => Type.String({ maxLength });
const NullableStr = (maxLength: number) => Type.Union([Type.String({ maxLength }), Type.Null()]);

export const CatalogReferenceSchema = Type.Object({
  catalogItemId: Type.String({ minLength: 1, maxLength: 100 }),
  appId: Type.String({ minLength: 1, maxLength: 100 }),
  options: Type.Optional(Type.Union([
    Type.Object({
      variantId: Type.Optional(Type.String({ maxLength: 100 })),
      options: Type.Optional(Type.Record(Str(50), Str(50))),
      customTextFields: Type.Optional(Type.Record(Str(100), Str(500))),
      // A gift card's own amount (commerce/custom-amount.ts), checked against the merchant's limits.
      customAmount: Type.Optional(Str(64)),
    }),
    Type.Null(),
  ])),
});

const Quantity = Type.Integer({ minimum: 1, maximum: MAX_LINE_QUANTITY });

export const LineItemInput = Type.Object({
  catalogReference: CatalogReferenceSchema,
  quantity: Type.Optional(Quantity),
});

const Translatable = Type.Object({ original: Type.Optional(Str(200)), translated: Type.Optional(NullableStr(200)) });

export const CustomLineItemInput = Type.Object({
  quantity: Type.Optional(Quantity),
  price: Type.String({ minLength: 1, maxLength: 40 }),
  fullPrice: Type.Optional(NullableStr(40)),
  productName: Translatable,
  itemType: Type.Optional(Type.Object({ preset: Type.Optional(Str(40)), custom: Type.Optional(Str(100)) })),
  descriptionLines: Type.Optional(Type.Array(Type.Object({
    name: Type.Optional(Translatable),
    plainText: Type.Optional(Translatable),
    colorInfo: Type.Optional(Type.Object({ original: Type.Optional(Str(100)), code: Type.Optional(NullableStr(20)) })),
  }), { maxItems: 20 })),
  media: Type.Optional(Type.Object({ id: Type.Optional(Str(500)), url: Type.Optional(Str(2048)), width: Type.Optional(Type.Integer({ minimum: 0 })), height: Type.Optional(Type.Integer({ minimum: 0 })) })),
  url: Type.Optional(Type.Object({ relativePath: Type.Optional(Str(2048)), url: Type.Optional(NullableStr(2048)) })),
  quantityAvailable: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
  physicalProperties: Type.Optional(Type.Object({ weight: Type.Optional(Type.Union([Type.Number({ minimum: 0 }), Type.Null()])), sku: Type.Optional(NullableStr(40)), shippable: Type.Optional(Type.Boolean()) })),
  catalogReference: Type.Optional(Type.Object({ catalogItemId: Type.Optional(Str(100)), appId: Type.Optional(Str(100)), options: Type.Optional(Type.Unknown()) })),
  id: Type.Optional(NullableStr(100)),
});

export const MerchantDiscountInput = Type.Object({
  amount: Type.Optional(Str(40)),
  percentage: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 100 }), Str(20)])),
  lineItemIds: Type.Optional(Type.Array(Str(100), { maxItems: 300 })),
});

export const SelectedShippingOption = Type.Object({ code: Type.String({ minLength: 1, maxLength: 100 }), carrierId: Type.Optional(NullableStr(100)) });

export type WireLineItemInput = Static<typeof LineItemInput>;
export type WireCustomLineItemInput = Static<typeof CustomLineItemInput>;
export type WireMerchantDiscountInput = Static<typeof MerchantDiscountInput>;

// Input conversions -----------------------------------------------------------------------------

function money(field: string, text: string, currency: string, violations: FieldViolation[]): bigint {
  try {
    return parseAmount(text, currency);
  } catch (error) {
    if (!(error instanceof MoneyError)) throw error;
    violations.push({ field, rule: error.rule === 'DECIMAL_MAX_SCALE' ? 'DECIMAL_MAX_SCALE' : error.rule === 'NEGATIVE' ? 'DECIMAL_GTE' : 'FORMAT', description: error.message, data: {} });
    return 0n;
  }
}

export function fromWireLineItems(items: readonly WireLineItemInput[] | undefined): CatalogLineInput[] {
  return (items ?? []).map((item) => {
    const ref = item.catalogReference;
    const options = ref.options ?? undefined;
    const catalogReference: CatalogReference = { appId: ref.appId, catalogItemId: ref.catalogItemId, ...(options && Object.keys(options).length ? { options } : {}) };
    return { catalogReference, quantity: item.quantity ?? 1 };
  });
}

const PRESETS: readonly ItemType[] = ['PHYSICAL', 'DIGITAL', 'GIFT_CARD', 'SERVICE'];

export function fromWireCustomLines(items: readonly WireCustomLineItemInput[] | undefined, currency: string, prefix = 'customLineItems'): { quantity: number; line: CustomLine }[] {
  const violations: FieldViolation[] = [];
  const lines = (items ?? []).map((item, i) => {
    const field = `${prefix}[${i}]`;
    const name = item.productName.original?.trim() ?? '';
    if (!name) violations.push({ field: `${field}.productName.original`, rule: 'REQUIRED_FIELD', description: 'a custom line item needs a name', data: {} });
    const price = money(`${field}.price`, item.price, currency, violations);
    const fullPrice = item.fullPrice ? money(`${field}.fullPrice`, item.fullPrice, currency, violations) : undefined;
    const preset = item.itemType?.preset;
    let itemType: ItemType = 'CUSTOM_AMOUNT_ITEM';
    if (preset !== undefined) {
      if (!PRESETS.includes(preset as ItemType)) violations.push({ field: `${field}.itemType.preset`, rule: 'INVALID_ENUM_VALUE', description: `must be one of ${PRESETS.join(', ')}`, data: { allowedValues: PRESETS } });
      else itemType = preset as ItemType;
    }
    const weight = item.physicalProperties?.weight;
    const mediaUrl = item.media?.url;
    const pageUrl = item.url?.url ?? item.url?.relativePath;
    const line: CustomLine = {
      productName: name,
      price,
      ...(fullPrice !== undefined && { fullPrice }),
      itemType,
      descriptionLines: (item.descriptionLines ?? []).map((d) => ({
        name: d.name?.original ?? '',
        value: d.plainText?.original ?? d.colorInfo?.original ?? '',
        ...(d.colorInfo?.code ? { color: d.colorInfo.code } : {}),
      })),
      ...(mediaUrl ? { media: { url: mediaUrl, width: item.media?.width ?? 0, height: item.media?.height ?? 0 } } : {}),
      ...(pageUrl ? { url: pageUrl } : {}),
      ...(weight !== undefined && weight !== null ? { weight: formatDecimal(parseDecimal(weight)) } : {}),
      ...(item.physicalProperties?.sku ? { sku: item.physicalProperties.sku } : {}),
      ...(item.quantityAvailable !== undefined ? { quantityAvailable: item.quantityAvailable } : {}),
      ...(item.catalogReference?.catalogItemId && item.catalogReference.appId
        ? { catalogReference: { catalogItemId: item.catalogReference.catalogItemId, appId: item.catalogReference.appId } }
        : {}),
      taxable: itemType !== 'GIFT_CARD',
    };
    return { quantity: item.quantity ?? 1, line };
  });
  if (violations.length) throw ApiError.validation(violations);
  return lines;
}

export function fromWireMerchantDiscounts(items: readonly WireMerchantDiscountInput[], currency: string): MerchantDiscount[] {
  const violations: FieldViolation[] = [];
  const discounts = items.map((item, i): MerchantDiscount => {
    const scope = item.lineItemIds?.length ? { lineItemIds: item.lineItemIds } : {};
    if (item.amount !== undefined) return { type: 'AMOUNT', amount: money(`merchantDiscounts[${i}].amount`, item.amount, currency, violations), ...scope };
    if (item.percentage !== undefined) {
      try {
        const percent = parseDecimal(item.percentage);
        if (percent.units < 0n || percent.units > 100n * 10n ** BigInt(percent.scale)) throw new MoneyError('FORMAT', 'a percentage is between 0 and 100');
        return { type: 'PERCENT', percent: formatDecimal(percent), ...scope };
      } catch (error) {
        if (!(error instanceof MoneyError)) throw error;
        violations.push({ field: `merchantDiscounts[${i}].percentage`, rule: 'FORMAT', description: error.message, data: {} });
      }
    } else {
      violations.push({ field: `merchantDiscounts[${i}]`, rule: 'REQUIRED_ONE_OF_FIELD', description: 'give an amount or a percentage', data: {} });
    }
    return { type: 'AMOUNT', amount: 0n };
  });
  if (violations.length) throw ApiError.validation(violations);
  return discounts;
}

// Output ----------------------------------------------------------------------------------------

export function wireBuyer(buyer: Buyer, email?: string | null): Record<string, string> {
  const id: Record<string, string> = buyer.kind === 'visitor' ? { visitorId: buyer.id } : buyer.kind === 'member' ? { memberId: buyer.id } : {};
  return { ...id, ...(email ? { email } : {}) };
}

export function wireItemType(itemType: ItemType): { preset: Exclude<ItemType, 'CUSTOM_AMOUNT_ITEM'> } | { custom: string } {
  return itemType === 'CUSTOM_AMOUNT_ITEM' ? { custom: 'CUSTOM_AMOUNT_ITEM' } : { preset: itemType };
}

export function wireDescriptionLines(line: ResolvedLine) {
  return line.descriptionLines.map((d) =>
    d.color !== undefined
      ? { name: { original: d.name, translated: d.name }, colorInfo: { original: d.value, translated: d.value, code: d.color }, lineType: 'COLOR' as const }
      : { name: { original: d.name, translated: d.name }, plainText: { original: d.value, translated: d.value }, lineType: 'PLAIN_TEXT' as const },
  );
}

export function wireImage(line: ResolvedLine, publicUrl: string) {
  if (!line.image) return undefined;
  return { url: absoluteUrl(line.image.url, publicUrl), width: line.image.width, height: line.image.height, ...(line.image.altText ? { altText: line.image.altText } : {}) };
}

export function wirePageUrl(line: ResolvedLine, publicUrl: string) {
  const relativePath = line.slug ? `/product-page/${line.slug}` : line.ref.custom?.url ?? '';
  if (!relativePath) return undefined;
  return { relativePath, url: /^https?:/.test(relativePath) ? relativePath : `${publicUrl.replace(/\/$/, '')}${relativePath}` };
}

/** A cart or checkout line item as both show it (checkout adds its prices). */
export function toWireLineItem(line: ResolvedLine, currency: string, publicUrl: string) {
  const image = wireImage(line, publicUrl);
  const url = wirePageUrl(line, publicUrl);
  const catalogReference = line.ref.catalogReference ?? line.ref.custom?.catalogReference;
  const quantityAvailable = line.stock.quantityAvailable;
  const status: AvailabilityStatus = !line.stock.found ? 'NOT_FOUND'
    : !line.stock.inStock || (quantityAvailable !== undefined && quantityAvailable !== null && quantityAvailable <= 0) ? 'NOT_AVAILABLE'
    : quantityAvailable !== undefined && quantityAvailable !== null && quantityAvailable < line.ref.quantity ? 'PARTIALLY_AVAILABLE'
    : 'AVAILABLE';
  return {
    id: line.ref.id,
    quantity: line.ref.quantity,
    ...(catalogReference ? { catalogReference } : {}),
    productName: { original: line.name, translated: line.name },
    ...(url ? { url } : {}),
    price: toWireMoney(line.price, currency),
    fullPrice: toWireMoney(line.fullPrice, currency),
    priceBeforeDiscounts: toWireMoney(line.price, currency),
    lineItemPrice: toWireMoney(line.price * BigInt(line.ref.quantity), currency),
    descriptionLines: wireDescriptionLines(line),
    ...(image ? { image } : {}),
    availability: { status, ...(quantityAvailable !== undefined && quantityAvailable !== null ? { quantityAvailable: Math.max(quantityAvailable, 0) } : {}) },
    physicalProperties: { ...(line.weight !== null ? { weight: Number(line.weight) } : {}), ...(line.sku ? { sku: line.sku } : {}), shippable: line.itemType === 'PHYSICAL' },
    itemType: wireItemType(line.itemType),
    paymentOption: 'FULL_PAYMENT_ONLINE' as const,
    ...(line.productId ? { rootCatalogItemId: line.productId } : {}),
    customLineItem: line.ref.custom !== undefined,
    priceUndetermined: false,
    fixedQuantity: false,
    savePaymentMethod: false,
    membersOnly: false,
  };
}

export function zeroSummary(currency: string) {
  const zero = toWireMoney(0n, currency);
  return { subtotal: zero, shipping: zero, tax: zero, discount: zero, total: zero, additionalFees: zero };
}
