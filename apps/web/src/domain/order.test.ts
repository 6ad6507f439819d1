import { describe, expect, it } from 'vitest';
import { addressLines, orderActions, planRefund, refundWaits, trackingInfo, wholeOrderLines } from './order.js';

describe('orderActions', () => {
  it('lets an unpaid, unshipped order be paid, fulfilled and canceled, not refunded', () => {
    expect(orderActions({ status: 'APPROVED', paymentStatus: 'NOT_PAID', fulfillmentStatus: 'NOT_FULFILLED' }))
      .toEqual({ canceled: false, collect: true, refund: false, fulfil: true, cancel: true });
  });

  it('takes payments while some money is owed, offline ones included', () => {
    for (const paymentStatus of ['PARTIALLY_PAID', 'PENDING', 'PENDING_MERCHANT'] as const) {
      expect(orderActions({ paymentStatus }).collect).toBe(true);
    }
    for (const paymentStatus of ['PAID', 'FULLY_REFUNDED', 'PARTIALLY_REFUNDED'] as const) {
      expect(orderActions({ paymentStatus }).collect).toBe(false);
    }
  });

  it('refunds a paid, partly paid or partly refunded order', () => {
    expect(orderActions({ paymentStatus: 'PAID' }).refund).toBe(true);
    expect(orderActions({ paymentStatus: 'PARTIALLY_PAID' }).refund).toBe(true);
    expect(orderActions({ paymentStatus: 'PARTIALLY_REFUNDED' }).refund).toBe(true);
    expect(orderActions({ paymentStatus: 'FULLY_REFUNDED' }).refund).toBe(false);
  });

  it('neither fulfils nor cancels a shipped order, nor takes money for a canceled one', () => {
    expect(orderActions({ paymentStatus: 'PAID', fulfillmentStatus: 'FULFILLED' })).toMatchObject({ fulfil: false, cancel: false, refund: true });
    expect(orderActions({ status: 'CANCELED', paymentStatus: 'NOT_PAID' })).toMatchObject({ canceled: true, collect: false, fulfil: false, cancel: false });
  });
});

describe('planRefund', () => {
  const left = { refundable: '30.00', payments: [{ id: 'old', refundable: '10.00' }, { id: 'new', refundable: '20.00' }] };

  it('spreads the amount over the payments, oldest first, in the currency’s minor units', () => {
    expect(planRefund(' 15.5 ', 'USD', left)).toEqual({ ok: true, amount: '15.50', payments: [{ paymentId: 'old', amount: '10.00' }, { paymentId: 'new', amount: '5.50' }] });
    expect(planRefund('30', 'USD', left)).toMatchObject({ ok: true, amount: '30.00' });
  });

  it('refuses what is not an amount, zero and more than is left', () => {
    expect(planRefund('ten', 'USD', left)).toEqual({ ok: false, problem: 'FORMAT' });
    expect(planRefund('1.005', 'USD', left)).toEqual({ ok: false, problem: 'FORMAT' });
    expect(planRefund('0.00', 'USD', left)).toEqual({ ok: false, problem: 'ZERO' });
    expect(planRefund('30.01', 'USD', left)).toEqual({ ok: false, problem: 'TOO_MUCH' });
  });

  it('refuses a total the payments cannot cover even when the order says more is left', () => {
    expect(planRefund('25', 'USD', { refundable: '30', payments: [{ id: 'only', refundable: '20' }] })).toEqual({ ok: false, problem: 'TOO_MUCH' });
  });

  it('knows currencies without minor units', () => {
    expect(planRefund('500', 'JPY', { refundable: '1000', payments: [{ id: 'p', refundable: '1000' }] })).toEqual({ ok: true, amount: '500', payments: [{ paymentId: 'p', amount: '500' }] });
    expect(planRefund('500.5', 'JPY', { refundable: '1000', payments: [{ id: 'p', refundable: '1000' }] })).toEqual({ ok: false, problem: 'FORMAT' });
  });
});

describe('fulfilment details', () => {
  it('ships every line with its quantity', () => {
    expect(wholeOrderLines({ lineItems: [{ _id: 'a', quantity: 2 }, { _id: 'b', quantity: 1 }] })).toEqual([{ _id: 'a', quantity: 2 }, { _id: 'b', quantity: 1 }]);
  });

  it('leaves out tracking details left empty', () => {
    expect(trackingInfo({ trackingNumber: ' 1Z999 ', shippingProvider: '', trackingLink: '  ' })).toEqual({ trackingNumber: '1Z999' });
  });
});

describe('addressLines', () => {
  it('writes the lines there are, the state without its country prefix and the country by name', () => {
    expect(addressLines({
      contactDetails: { firstName: 'Ada', lastName: 'Lovelace', phone: '+1 555' },
      address: { addressLine: '1 Main St', city: 'Albany', postalCode: '12207', subdivision: 'US-NY', country: 'US' },
    })).toEqual(['Ada Lovelace', '1 Main St', '12207 Albany NY', 'United States', '+1 555']);
    expect(addressLines({ address: { city: 'Paris', country: 'FR' } })).toEqual(['Paris', 'France']);
    expect(addressLines(undefined)).toEqual([]);
  });
});

describe('refundWaits', () => {
  const answer = (refundStatus: string) => ({
    refundId: 'r2',
    orderTransactions: { refunds: [{ id: 'r1', transactions: [{ refundStatus: 'SCHEDULED' }] }, { id: 'r2', transactions: [{ refundStatus }] }] },
  });

  it('is true only when the refund just made is SCHEDULED (an older one does not count)', () => {
    expect(refundWaits(answer('SCHEDULED'))).toBe(true);
    expect(refundWaits(answer('SUCCEEDED'))).toBe(false);
    expect(refundWaits({ refundId: 'r9' })).toBe(false);
  });
});
