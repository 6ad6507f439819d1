import { describe, expect, it } from 'vitest';
import { fromWire, sdkFieldPath, toWire, wireFieldPath } from './wire-keys.js';

describe('fromWire', () => {
  it('renames id, createdDate and updatedDate at any depth and turns their timestamps into Dates', () => {
    const out = fromWire<Record<string, unknown>>({
      cart: {
        id: 'cart-1',
        createdDate: '2024-05-01T10:00:00.000Z',
        updatedDate: '2024-05-02T10:00:00.000Z',
        lineItems: [{ id: 'li-1', catalogReference: { catalogItemId: 'p1' } }],
      },
    });
    expect(out).toEqual({
      cart: {
        _id: 'cart-1',
        _createdDate: new Date('2024-05-01T10:00:00.000Z'),
        _updatedDate: new Date('2024-05-02T10:00:00.000Z'),
        lineItems: [{ _id: 'li-1', catalogReference: { catalogItemId: 'p1' } }],
      },
    });
  });

  it('turns lastLoginDate, purchasedDate and delivery slots into Dates', () => {
    const out = fromWire<Record<string, Record<string, unknown>>>({
      member: { lastLoginDate: '2024-05-01T10:00:00.000Z' },
      order: {
        purchasedDate: '2024-05-03T10:00:00.000Z',
        shippingInfo: { logistics: { deliveryTimeSlot: { from: '2024-05-04T10:00:00.000Z', to: 'soon' } } },
      },
    });
    expect(out.member.lastLoginDate).toEqual(new Date('2024-05-01T10:00:00.000Z'));
    expect(out.order.purchasedDate).toEqual(new Date('2024-05-03T10:00:00.000Z'));
    expect(out.order).toMatchObject({
      shippingInfo: { logistics: { deliveryTimeSlot: { from: new Date('2024-05-04T10:00:00.000Z'), to: 'soon' } } },
    });
  });

  it('does not rename a key whose target already exists', () => {
    expect(fromWire({ id: 'wire', _id: 'sdk' })).toEqual({ id: 'wire', _id: 'sdk' });
  });
});

describe('toWire', () => {
  it('renames system keys back and maps sort field names', () => {
    expect(
      toWire({
        member: { _id: 'm-1', profile: { nickname: 'n' } },
        sorting: [{ fieldName: '_createdDate', order: 'DESC' }],
      }),
    ).toEqual({ member: { id: 'm-1', profile: { nickname: 'n' } }, sorting: [{ fieldName: 'createdDate', order: 'DESC' }] });
  });

  it('does not rename a key whose target already exists', () => {
    expect(toWire({ id: 'a', _id: 'b' })).toEqual({ id: 'a', _id: 'b' });
  });
});

describe('field paths', () => {
  it('maps system segments between SDK and wire names', () => {
    expect(wireFieldPath('_id')).toBe('id');
    expect(wireFieldPath('profile._createdDate')).toBe('profile.createdDate');
    expect(sdkFieldPath('lineItems[0].id')).toBe('lineItems[0]._id');
    expect(sdkFieldPath('member.updatedDate')).toBe('member._updatedDate');
    expect(sdkFieldPath('catalogItemId')).toBe('catalogItemId');
  });
});
