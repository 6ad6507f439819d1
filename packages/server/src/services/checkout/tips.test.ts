// Tips through the official @wix/ecom packages: the merchant turns tips on (tipSettings), a shopper
// reads the presets, chooses a tip for the checkout (tips.updateTipChoice by its purchase flow),
// the checkout prices it next to a taxed fee, the order keeps it with its type and split and was
// charged with it, and tips.getTipByOrderId answers it.
import { describe, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient, OAuthStrategy } from '@wix/sdk';
import { checkout, currentCart, orders, tips, tipSettings } from '@wix/ecom';
import { useListeningWixApp } from '../../test/sign-in.js';
import { apiKey, createProduct, STORES_APP_ID } from '../../test/commerce.js';

const listening = useListeningWixApp();

const NEW_YORK = { country: 'US', subdivision: 'US-NY', city: 'New York', addressLine1: '1 Main St', postalCode: '10001' };
const TIPS_APP_ID = '869a50c8-dd38-4324-b201-e33dc0747a5f';
const fees = (list: { code?: string | null; name?: string | null; price?: { amount?: string } | null; providerAppId?: string | null }[] | undefined) =>
  (list ?? []).map((f) => [f.name, f.price?.amount, f.providerAppId ?? null]);
const errorCode = (error: unknown) => (error as { details?: { applicationError?: { code?: string } } }).details?.applicationError?.code;

describe('tips', () => {
  it('are offered when the site turns them on, priced on the checkout, kept on the order and charged with it', async () => {
    const { t } = listening();
    const site = await t.createSite();
    const merchant = createClient({ modules: { orders, tips, tipSettings }, auth: ApiKeyStrategy({ apiKey: site.apiKey, siteId: site.siteId }) });
    const shopper = createClient({ modules: { currentCart, checkout, tips, tipSettings }, auth: OAuthStrategy({ clientId: site.clientId }) });

    // Off until the site turns them on.
    const before = await shopper.tipSettings.queryTipSettings().find();
    expect(before.items.map((s) => [s.allowCustomerTip, s.tipType, s.presets?.map((p) => p.value)])).toEqual([[false, 'PERCENTAGE', [10, 15, 20]]]);

    const settings = await merchant.tipSettings.updateTipSettings({
      allowCustomerTip: true, tipType: tipSettings.TipType.PERCENTAGE, allowCustomAmount: true,
      presets: [{ value: 10 }, { value: 12.5, default: true }, { value: 20 }], staffDistributionMethod: tipSettings.StaffDistributionMethod.PROPORTIONAL,
    });
    expect([settings.allowCustomerTip, (settings.presets ?? []).map((p) => [p.value, p.default]), settings.staffDistributionMethod]).toEqual([true, [[10, false], [12.5, true], [20, false]], 'PROPORTIONAL']);
    await expect(merchant.tipSettings.updateTipSettings({ presets: [{ value: 101 }] })).rejects.toSatisfy((e) => JSON.stringify(e).includes('PRESET_PERCENTAGE_TOO_HIGH'));
    await expect(merchant.tipSettings.updateTipSettings({ presets: [{ value: 5, default: true }, { value: 10, default: true }] })).rejects.toSatisfy((e) => JSON.stringify(e).includes('CANNOT_HAVE_MORE_THAN_ONE_DEFAULT_PRESET'));
    const fee = await t.app.inject({
      method: 'PATCH', url: '/_api/bodega/v1/commerce-settings', headers: apiKey(site),
      payload: { settings: { tax: { rates: [{ country: 'US', rate: '10' }] }, additionalFees: [{ kind: 'HANDLING_FEE', name: 'Handling', amount: '2.50', taxable: true }] } },
    });
    expect(fee.statusCode, fee.body).toBe(200);

    // 12.5% of 21.00 = 2.625 → 2.62 (half-even); the preview prices the same choice on lines alone.
    const preview = await shopper.tips.previewTip([{ price: '10.50', quantity: 2, name: 'Mug' }], { tipChoice: { tipType: tips.TipType.PERCENTAGE, value: '12.5' } });
    expect([preview.tip?.lineItemSubtotal, preview.tip?.amount]).toEqual(['21.00', '2.62']);

    const mug = await createProduct(t.app, site, { name: 'Mug', priceData: { price: 10.5 } });
    await shopper.currentCart.addToCurrentCart({ lineItems: [{ catalogReference: { appId: STORES_APP_ID, catalogItemId: mug.id }, quantity: 2 }] });
    const { checkoutId } = await shopper.currentCart.createCheckoutFromCurrentCart({ channelType: checkout.ChannelType.WEB });
    const flow = checkoutId as string;
    const ready = await shopper.checkout.updateCheckout(flow, {
      buyerInfo: { email: 'ada@example.com' },
      shippingInfo: { shippingDestination: { address: NEW_YORK, contactDetails: { firstName: 'Ada', lastName: 'Lovelace' } } },
    });
    expect(ready.purchaseFlowId).toBe(flow);
    expect((await shopper.tips.getTipChoice(flow)).tipChoice).toBeUndefined();

    // A choice the settings do not offer is refused in words; a preset is taken.
    await expect(shopper.tips.updateTipChoice({ tipType: tips.TipType.PERCENTAGE, value: '17' }, { purchaseFlowId: flow })).rejects.toSatisfy((e) => errorCode(e) === 'INVALID_TIP');
    await expect(shopper.tips.updateTipChoice({ tipType: tips.TipType.AMOUNT, value: '2' }, { purchaseFlowId: flow })).rejects.toSatisfy((e) => errorCode(e) === 'INVALID_TIP');
    // An amount no order could hold is refused up front, not when the order is placed.
    await expect(shopper.tips.updateTipChoice({ tipType: tips.TipType.CUSTOM, value: '1234567890123' }, { purchaseFlowId: flow })).rejects.toSatisfy((e) => (e as { details?: { validationError?: { fieldViolations?: { field?: string }[] } } }).details?.validationError?.fieldViolations?.[0]?.field === 'tipChoice.value');
    const chosen = await shopper.tips.updateTipChoice({ tipType: tips.TipType.PERCENTAGE, value: '12.5' }, { purchaseFlowId: flow });
    expect(chosen.tipChoice).toEqual({ tipType: 'PERCENTAGE', value: '12.5' });
    expect((await shopper.tips.getTipChoice(flow)).tipChoice).toEqual({ tipType: 'PERCENTAGE', value: '12.5' });

    // Goods 21.00, tax 2.10 + the fee's 0.25, handling 2.50, tip 2.62 (untaxed): 28.47.
    const priced = await shopper.checkout.getCheckout(flow);
    expect(fees(priced.additionalFees)).toEqual([['Handling', '2.50', null], ['Tip', '2.62', TIPS_APP_ID]]);
    expect(priced.priceSummary?.additionalFees?.amount).toBe('5.12');
    expect(priced.priceSummary?.tax?.amount).toBe('2.35');
    expect(priced.priceSummary?.total?.amount).toBe('28.47');

    // An amount of their own replaces it.
    await shopper.tips.updateTipChoice({ tipType: tips.TipType.CUSTOM, value: '3.00' }, { purchaseFlowId: flow });
    expect((await shopper.checkout.getCheckout(flow)).priceSummary?.total?.amount).toBe('28.85');

    const paid = await shopper.checkout.createOrderAndCharge(flow, { paymentToken: 'tok_test_ok' });
    const order = await merchant.orders.getOrder(paid.orderId as string);
    expect(fees(order.additionalFees)).toEqual([['Handling', '2.50', null], ['Tip', '3.00', TIPS_APP_ID]]);
    expect(order.priceSummary?.totalAdditionalFees?.amount).toBe('5.50');
    expect(order.priceSummary?.total?.amount).toBe('28.85');
    expect(order.paymentStatus).toBe('PAID');
    expect(order.balanceSummary?.paid?.amount).toBe('28.85');

    const tip = await merchant.tips.getTipByOrderId(paid.orderId as string);
    expect(tip.tip).toMatchObject({ amount: '3.00', lineItemSubtotal: '21.00', undistributedAmount: '3.00', distributions: [] });
    expect(tip.tip?._id).toBe(flow);
    const raw = await t.app.inject({ method: 'GET', url: `/_api/tips-service/v1/tips/order/${paid.orderId}`, headers: apiKey(site) });
    expect(raw.json().tip).toMatchObject({ tipType: 'CUSTOM', staffDistributionMethod: 'PROPORTIONAL' });

    // A completed checkout's tip no longer changes.
    await expect(shopper.tips.updateTipChoice({ tipType: tips.TipType.CUSTOM, value: '1.00' }, { purchaseFlowId: flow })).rejects.toSatisfy((e) => errorCode(e) === 'CHECKOUT_ALREADY_COMPLETED');
  }, 120_000); // about 30 calls through the official SDK: 8 s alone, far more under CI's load

  it('refuses a tip when the site has tips off, and answers TIP_NOT_FOUND for an order without one', async () => {
    const { t } = listening();
    const site = await t.createSite();
    const shopper = createClient({ modules: { currentCart, checkout, tips }, auth: OAuthStrategy({ clientId: site.clientId }) });
    const mug = await createProduct(t.app, site, { name: 'Mug', priceData: { price: 10 } });
    await shopper.currentCart.addToCurrentCart({ lineItems: [{ catalogReference: { appId: STORES_APP_ID, catalogItemId: mug.id }, quantity: 1 }] });
    const { checkoutId } = await shopper.currentCart.createCheckoutFromCurrentCart({ channelType: checkout.ChannelType.WEB });
    await expect(shopper.tips.updateTipChoice({ tipType: tips.TipType.PERCENTAGE, value: '15' }, { purchaseFlowId: checkoutId as string })).rejects.toSatisfy((e) => errorCode(e) === 'INVALID_TIP');
    await shopper.checkout.updateCheckout(checkoutId as string, { buyerInfo: { email: 'ada@example.com' }, shippingInfo: { shippingDestination: { address: NEW_YORK, contactDetails: { firstName: 'Ada' } } } });
    const { orderId } = await shopper.checkout.createOrder(checkoutId as string);
    const none = await t.app.inject({ method: 'GET', url: `/_api/tips-service/v1/tips/order/${orderId}`, headers: apiKey(site) });
    expect([none.statusCode, none.json().details.applicationError.code]).toEqual([404, 'TIP_NOT_FOUND']);
  });
});
