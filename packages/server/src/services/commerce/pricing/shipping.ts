// Shipping: the destination's region, its rules and pickup points, priced on what the physical
// lines cost after discounts and weigh. Pure.
import { addDecimal, compareDecimal, formatDecimal, multiplyDecimal, parseDecimal, type Decimal } from '../../../platform/money.js';
import { sameSubdivision, sum, upper, type Address, type PricingInput, type ShippingCondition, type ShippingOptionResult, type ShippingRegion, type ShippingResult, type Violation, type WorkLine } from './model.js';

const ZERO_WEIGHT: Decimal = { units: 0n, scale: 0 };

export function priceShipping(input: PricingInput, counted: WorkLine[], violations: Violation[]): ShippingResult {
  const physical = counted.filter((line) => line.input.itemType === 'PHYSICAL');
  let totalWeight = ZERO_WEIGHT;
  for (const line of physical) {
    const unitWeight = line.input.weight === undefined ? ZERO_WEIGHT : parseDecimal(line.input.weight);
    totalWeight = addDecimal(totalWeight, multiplyDecimal(unitWeight, BigInt(line.input.quantity)));
  }
  const totalQuantity = physical.reduce((acc, line) => acc + line.input.quantity, 0);
  const totalPrice = sum(physical.map((line) => line.lineSubtotal - line.discount));
  const result: ShippingResult = {
    status: 'NOT_REQUIRED',
    options: [],
    cost: 0n,
    tax: 0n,
    totalWeight: formatDecimal(totalWeight),
    totalQuantity,
    totalPrice,
  };
  if (physical.length === 0) return result;
  if (input.calculateShipping === false) return { ...result, status: 'NOT_CALCULATED' };

  const destination = input.shippingAddress?.country ? input.shippingAddress : undefined;
  const region = destination ? findRegion(input.shippingRegions ?? [], destination) : undefined;
  const delivery: ShippingOptionResult[] = [];
  for (const rule of region?.rules ?? []) {
    if (!ruleMatches(rule, totalWeight, totalPrice, totalQuantity)) continue;
    const option: ShippingOptionResult = {
      code: rule.code,
      title: rule.title,
      kind: 'DELIVERY',
      cost: rule.rate,
      ...(rule.deliveryTime !== undefined && { deliveryTime: rule.deliveryTime }),
    };
    const sameCode = delivery.findIndex((existing) => existing.code === rule.code);
    if (sameCode < 0) delivery.push(option);
    else if (option.cost < delivery[sameCode].cost) delivery[sameCode] = option; // cheapest matching tier
  }
  const pickup: ShippingOptionResult[] = (input.pickupOptions ?? []).map((option) => ({
    code: option.code,
    title: option.title,
    kind: 'PICKUP',
    cost: option.cost,
    ...(option.instructions !== undefined && { instructions: option.instructions }),
    ...(option.address !== undefined && { pickupAddress: option.address }),
  }));
  const options = [...delivery, ...pickup];
  if (region) result.region = { id: region.id, name: region.name };
  result.options = options;

  if (options.length === 0) {
    if (!destination) {
      violations.push({
        code: 'SHIPPING_DESTINATION_MISSING',
        severity: 'WARNING',
        target: { other: { name: 'DELIVERY' } },
        description: 'Add a shipping address to see delivery options.',
      });
      return { ...result, status: 'DESTINATION_MISSING' };
    }
    violations.push({
      code: 'NO_SHIPPING_OPTIONS',
      severity: 'ERROR',
      target: { other: { name: 'DELIVERY' } },
      description: "We don't ship to this address.",
    });
    return { ...result, status: 'NO_OPTIONS' };
  }

  const requestedCode = input.selectedShippingOptionCode;
  const requested = requestedCode === undefined ? undefined : options.find((option) => option.code === requestedCode);
  // Without a usable choice: the cheapest delivery option, else the cheapest pickup (first on a tie).
  const chosen = requested ?? cheapest(delivery) ?? cheapest(pickup);
  if (requestedCode !== undefined && !requested && chosen) {
    violations.push({
      code: 'SHIPPING_OPTION_UNAVAILABLE',
      severity: 'WARNING',
      target: { other: { name: 'DELIVERY' } },
      description: `The selected delivery option isn't available here; "${chosen.title}" was chosen instead.`,
    });
  }
  if (!chosen) return result;
  const selected = { ...chosen, requested: requested !== undefined };
  return { ...result, status: 'SELECTED', selected, cost: chosen.cost };
}

function cheapest(options: ShippingOptionResult[]): ShippingOptionResult | undefined {
  return options.reduce<ShippingOptionResult | undefined>(
    (best, option) => (best === undefined || option.cost < best.cost ? option : best),
    undefined,
  );
}

/** A subdivision's region beats its country's, which beats "*" (rest of world); first wins a tie. */
function findRegion(regions: readonly ShippingRegion[], destination: Address): ShippingRegion | undefined {
  const country = upper(destination.country);
  let best: ShippingRegion | undefined;
  let bestRank = 0;
  for (const region of regions) {
    const regionCountry = upper(region.country);
    let rank = 0;
    if (regionCountry === '*') rank = 1;
    else if (regionCountry === country) {
      if (!region.subdivision) rank = 2;
      else if (sameSubdivision(country, region.subdivision, destination.subdivision)) rank = 3;
    }
    if (rank > bestRank) {
      best = region;
      bestRank = rank;
    }
  }
  return best;
}

function ruleMatches(rule: ShippingCondition, weight: Decimal, price: bigint, quantity: number): boolean {
  let comparison: -1 | 0 | 1;
  switch (rule.type) {
    case 'BY_TOTAL_WEIGHT':
      comparison = compareDecimal(weight, rule.threshold);
      break;
    case 'BY_TOTAL_PRICE':
      comparison = price < rule.threshold ? -1 : price > rule.threshold ? 1 : 0;
      break;
    case 'BY_TOTAL_QUANTITY':
      comparison = compareDecimal(BigInt(quantity).toString(), rule.threshold);
      break;
  }
  switch (rule.operator) {
    case 'EQ':
      return comparison === 0;
    case 'GT':
      return comparison > 0;
    case 'GTE':
      return comparison >= 0;
    case 'LT':
      return comparison < 0;
    case 'LTE':
      return comparison <= 0;
  }
}
