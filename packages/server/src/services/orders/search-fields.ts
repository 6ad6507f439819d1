// The order fields `searchOrders` filters and sorts on: every field the Wix reference lists as
// filterable or sortable for orders ("Orders: Supported Filters and Sorting"), mapped onto the
// orders table and its snapshot document (`o.doc`, see store.ts).
import { FilterError, push, type CustomField, type FieldMap } from '../../platform/query-filter.js';
import { currencyExponent, parseDecimal, formatDecimal } from '../../platform/money.js';

/** A buyer id field: Bodega keeps one id per buyer, so `contactId` of a member is the member id (as members answer it). */
function buyerField(kind: 'visitor' | 'member', name: string): CustomField {
  return {
    kind: 'custom',
    compile(operator, operand, params) {
      const ids = Array.isArray(operand) ? operand : [operand];
      if (!ids.every((id): id is string => typeof id === 'string')) throw new FilterError(`${name} takes ids`);
      const kindParam = push(params, kind);
      switch (operator) {
        case '$eq':
        case '$in':
          return `(o.buyer_kind = ${kindParam} AND o.buyer_id = ANY(${push(params, ids)}::text[]))`;
        case '$ne':
        case '$nin':
          return `NOT (o.buyer_kind = ${kindParam} AND o.buyer_id = ANY(${push(params, ids)}::text[]))`;
        case '$exists':
          return operand ? `o.buyer_kind = ${kindParam}` : `o.buyer_kind <> ${kindParam}`;
        default:
          throw new FilterError(`The operator ${operator} is not supported on "${name}"`);
      }
    },
  };
}

/** A value of each line item (`$hasSome`/`$in`: some line has one of them; `$hasAll`: every one is on some line). */
function lineField(path: string, name: string): CustomField {
  return {
    kind: 'custom',
    compile(operator, operand, params) {
      const values = Array.isArray(operand) ? operand : [operand];
      if (!values.every((v): v is string => typeof v === 'string')) throw new FilterError(`${name} takes strings`);
      const lines = `jsonb_array_elements(o.doc->'lines') AS l`;
      const some = () => `EXISTS (SELECT 1 FROM ${lines} WHERE ${path} = ANY(${push(params, values)}::text[]))`;
      switch (operator) {
        case '$eq':
        case '$in':
        case '$hasSome':
          return some();
        case '$ne':
        case '$nin':
          return `NOT ${some()}`;
        case '$hasAll':
          return `(SELECT count(DISTINCT ${path}) FROM ${lines} WHERE ${path} = ANY(${push(params, values)}::text[])) = ${push(params, new Set(values).size)}::int`;
        default:
          throw new FilterError(`The operator ${operator} is not supported on "${name}"`);
      }
    },
  };
}

let exponentLists: { zero: string[]; three: string[] } | undefined;

/** The order's total in major units, as `numeric` (exact), whatever the order's currency. */
function totalInMajorUnits(params: unknown[]): string {
  exponentLists ??= (() => {
    const all = Intl.supportedValuesOf('currency');
    return { zero: all.filter((c) => currencyExponent(c) === 0), three: all.filter((c) => currencyExponent(c) === 3) };
  })();
  const exponent = `CASE WHEN o.currency = ANY(${push(params, exponentLists.zero)}::text[]) THEN 0 WHEN o.currency = ANY(${push(params, exponentLists.three)}::text[]) THEN 3 ELSE 2 END`;
  return `(o.total_minor::numeric / power(10::numeric, ${exponent}))`;
}

const totalField: CustomField = {
  kind: 'custom',
  compile(operator, operand, params) {
    const amount = (value: unknown) => {
      if ((typeof value !== 'string' && typeof value !== 'number') || (typeof value === 'number' && !Number.isFinite(value))) {
        throw new FilterError('"priceSummary.total.amount" compares with an amount');
      }
      try {
        return push(params, formatDecimal(parseDecimal(value)));
      } catch {
        throw new FilterError(`"priceSummary.total.amount" cannot be compared with ${JSON.stringify(value)}`);
      }
    };
    const sign = { $eq: '=', $ne: '<>', $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' }[operator];
    if (sign) return `${totalInMajorUnits(params)} ${sign} ${amount(operand)}::numeric`;
    if (operator === '$in' || operator === '$nin') {
      if (!Array.isArray(operand)) throw new FilterError(`${operator} on "priceSummary.total.amount" needs a list`);
      const list = `ARRAY[${operand.map((v) => `${amount(v)}::numeric`).join(', ') || 'NULL::numeric'}]`;
      return `${operator === '$nin' ? 'NOT ' : ''}(${totalInMajorUnits(params)} = ANY(${list}))`;
    }
    throw new FilterError(`The operator ${operator} is not supported on "priceSummary.total.amount"`);
  },
};

const BILLING = `o.doc->'billingInfo'->'contactDetails'`;

export const ORDER_FIELDS: FieldMap = {
  id: { kind: 'column', sql: 'o.order_id', type: 'text', sortable: true },
  number: { kind: 'column', sql: 'o.number', type: 'bigint', sortable: true },
  status: { kind: 'column', sql: 'o.status', type: 'text', sortable: true },
  paymentStatus: { kind: 'column', sql: 'o.payment_status', type: 'text', sortable: true },
  fulfillmentStatus: { kind: 'column', sql: 'o.fulfillment_status', type: 'text', sortable: true },
  createdDate: { kind: 'column', sql: 'o.created_at', type: 'timestamp', sortable: true },
  updatedDate: { kind: 'column', sql: 'o.updated_at', type: 'timestamp', sortable: true },
  purchasedDate: { kind: 'column', sql: 'o.purchased_at', type: 'timestamp', sortable: true },
  checkoutId: { kind: 'column', sql: 'o.checkout_id', type: 'text' },
  archived: { kind: 'column', sql: 'o.archived', type: 'boolean' },
  'buyerInfo.email': { kind: 'column', sql: 'o.email', type: 'text', sortable: true },
  'buyerInfo.visitorId': buyerField('visitor', 'buyerInfo.visitorId'),
  'buyerInfo.memberId': buyerField('member', 'buyerInfo.memberId'),
  'buyerInfo.contactId': buyerField('member', 'buyerInfo.contactId'),
  'lineItems.productName.original': lineField(`l->>'name'`, 'lineItems.productName.original'),
  'lineItems.catalogReference.catalogItemId': lineField(`l->'catalogReference'->>'catalogItemId'`, 'lineItems.catalogReference.catalogItemId'),
  'lineItems.catalogReference.appId': lineField(`l->'catalogReference'->>'appId'`, 'lineItems.catalogReference.appId'),
  'priceSummary.total.amount': totalField,
  'channelInfo.type': { kind: 'column', sql: `(o.doc->>'channelType')`, type: 'text', sortable: true },
  'billingInfo.contactDetails.firstName': { kind: 'column', sql: `(${BILLING}->>'firstName')`, type: 'text' },
  'billingInfo.contactDetails.lastName': { kind: 'column', sql: `(${BILLING}->>'lastName')`, type: 'text' },
  'billingInfo.contactDetails.fullName': {
    kind: 'column',
    sql: `NULLIF(concat_ws(' ', NULLIF(${BILLING}->>'firstName', ''), NULLIF(${BILLING}->>'lastName', '')), '')`,
    type: 'text',
  },
  'shippingInfo.title': { kind: 'column', sql: `(o.doc->'shipping'->>'title')`, type: 'text', sortable: true },
  'shippingInfo.region.name': { kind: 'column', sql: `(o.doc->'shipping'->'region'->>'name')`, type: 'text', sortable: true },
  'shippingInfo.logistics.deliveryTime': { kind: 'column', sql: `(o.doc->'shipping'->>'deliveryTime')`, type: 'text' },
  deliveryTimeSlotFromDate: { kind: 'column', sql: `(o.doc->'shipping'->'deliveryTimeSlot'->>'from')`, type: 'text' },
  deliveryTimeSlotToDate: { kind: 'column', sql: `(o.doc->'shipping'->'deliveryTimeSlot'->>'to')`, type: 'text' },
  // Bodega has neither subscriptions nor Wix users placing orders: these never hold a value.
  'subscriptionInfo.id': { kind: 'column', sql: 'NULL::text', type: 'text' },
  'createdBy.userId': { kind: 'column', sql: 'NULL::text', type: 'text' },
};

/**
 * A sort key's SQL: nullable text sorts as '' so keyset paging compares plain values. `cast` is
 * the SQL type the cursor's value is read back as.
 */
export function sortExpression(field: string): { sql: string; cast: string } {
  const spec = ORDER_FIELDS[field];
  if (spec?.kind !== 'column') throw new FilterError(`"${field}" cannot be sorted on`);
  switch (spec.type) {
    case 'bigint':
      return { sql: spec.sql, cast: 'bigint' };
    case 'timestamp':
      return { sql: spec.sql === 'o.purchased_at' ? `COALESCE(o.purchased_at, 'epoch'::timestamptz)` : spec.sql, cast: 'timestamptz' };
    case 'boolean':
      return { sql: spec.sql, cast: 'boolean' };
    default:
      return { sql: `COALESCE(${spec.sql}, '')`, cast: 'text' };
  }
}
