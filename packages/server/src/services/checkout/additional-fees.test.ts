// Additional fees through the official @wix/ecom packages: the merchant sets a handling fee (taxed)
// and insurance (a percentage, untaxed); the cart's estimate, the checkout and the order show them
// priced exactly, and the order's total is what was charged.
import { describe, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient, OAuthStrategy } from '@wix/sdk';
import { checkout, currentCart, orders } from '@wix/ecom';
import { useListeningWixApp } from '../../test/sign-in.js';
import { apiKey, createProduct, STORES_APP_ID } from '../../test/commerce.js';

const listening = useListeningWixApp();

const NEW_YORK = { country: 'US', subdivision: 'US-NY', city: 'New York', addressLine1: '1 Main St', postalCode: '10001' };
const amounts = (fees: { code?: string | null; price?: { amount?: string } | null; taxDetails?: { totalTax?: { amount?: string } | null } | null }[] | undefined) =>
  (fees ?? []).map((f) => [f.code, f.price?.amount, f.taxDetails?.totalTax?.amount]);

describe('additional fees', () => {
  it('are priced by the checkout\'s rules and shown in the estimate, the checkout and the order', async () => {
    const { t } = listening();
    const site = await t.createSite();
    const settings = await t.app.inject({
      method: 'PATCH', url: '/_api/bodega/v1/commerce-settings', headers: apiKey(site),
      payload: { settings: {
        tax: { pricesIncludeTax: false, taxShipping: false, rates: [{ country: 'US', rate: '8.875' }] },
        additionalFees: [{ kind: 'HANDLING_FEE', name: 'Handling', amount: '2.50', taxable: true }, { kind: 'INSURANCE', name: 'Insurance', percent: '1.5', taxable: false }],
      } },
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const bad = await t.app.inject({ method: 'PATCH', url: '/_api/bodega/v1/commerce-settings', headers: apiKey(site), payload: { settings: { additionalFees: [{ kind: 'HANDLING_FEE', name: 'Both', amount: '1', percent: '1' }] } } });
    expect(bad.statusCode).toBe(400);
    const mug = await createProduct(t.app, site, { name: 'Mug', priceData: { price: 10 } });

    const shopper = createClient({ modules: { currentCart, checkout, orders }, auth: OAuthStrategy({ clientId: site.clientId }) });
    await shopper.currentCart.addToCurrentCart({ lineItems: [{ catalogReference: { appId: STORES_APP_ID, catalogItemId: mug.id }, quantity: 2 }] });
    const estimate = await shopper.currentCart.estimateCurrentCartTotals({ shippingAddress: NEW_YORK });
    // Goods 20.00, tax 1.78 (1.775 half-even); handling 2.50 + tax 0.22; insurance 1.5% = 0.30.
    expect(amounts(estimate.additionalFees)).toEqual([['HANDLING_FEE', '2.50', '0.22'], ['INSURANCE', '0.30', '0.00']]);
    expect(estimate.priceSummary?.additionalFees?.amount).toBe('2.80');
    expect(estimate.priceSummary?.tax?.amount).toBe('2.00');
    expect(estimate.priceSummary?.total?.amount).toBe('24.80');

    const { checkoutId } = await shopper.currentCart.createCheckoutFromCurrentCart({ channelType: checkout.ChannelType.WEB });
    const updated = await shopper.checkout.updateCheckout(checkoutId as string, {
      buyerInfo: { email: 'ada@example.com' },
      shippingInfo: { shippingDestination: { address: NEW_YORK, contactDetails: { firstName: 'Ada', lastName: 'Lovelace' } } },
    });
    expect(amounts(updated.additionalFees)).toEqual([['HANDLING_FEE', '2.50', '0.22'], ['INSURANCE', '0.30', '0.00']]);
    expect(updated.priceSummary?.total?.amount).toBe('24.80');

    const paid = await shopper.checkout.createOrderAndCharge(checkoutId as string, { paymentToken: 'tok_test_ok' });
    const merchant = createClient({ modules: { orders }, auth: ApiKeyStrategy({ apiKey: site.apiKey, siteId: site.siteId }) });
    const order = await merchant.orders.getOrder(paid.orderId as string);
    expect(amounts(order.additionalFees)).toEqual([['HANDLING_FEE', '2.50', '0.22'], ['INSURANCE', '0.30', '0.00']]);
    expect(order.priceSummary?.totalAdditionalFees?.amount).toBe('2.80');
    expect(order.priceSummary?.total?.amount).toBe('24.80');
    expect(order.paymentStatus).toBe('PAID');
    expect(order.balanceSummary?.paid?.amount).toBe('24.80');
  });
});
