import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Address } from '../commerce/addresses.js';
import type { CommerceSettingsService } from './service.js';

const Decimal = Type.String({ maxLength: 40, pattern: '^\\d+(\\.\\d+)?$' });
const SettingsBody = Type.Object({
  settings: Type.Object({
    inventoryUpdateTrigger: Type.Optional(Type.Union([Type.Literal('ON_ORDER_PLACED'), Type.Literal('ON_ORDER_PAID')])),
    weightUnit: Type.Optional(Type.Union([Type.Literal('KG'), Type.Literal('LB')])),
    shippingRegions: Type.Optional(Type.Array(Type.Object({
      id: Type.String({ minLength: 1, maxLength: 100 }),
      name: Type.String({ maxLength: 100 }),
      country: Type.String({ minLength: 1, maxLength: 3 }),
      subdivision: Type.Optional(Type.String({ maxLength: 10 })),
      taxShipping: Type.Optional(Type.Boolean()),
      rules: Type.Array(Type.Object({
        code: Type.String({ minLength: 1, maxLength: 100 }),
        title: Type.String({ maxLength: 200 }),
        rate: Decimal,
        deliveryTime: Type.Optional(Type.String({ maxLength: 100 })),
        type: Type.Union([Type.Literal('BY_TOTAL_WEIGHT'), Type.Literal('BY_TOTAL_PRICE'), Type.Literal('BY_TOTAL_QUANTITY')]),
        operator: Type.Union([Type.Literal('EQ'), Type.Literal('GT'), Type.Literal('GTE'), Type.Literal('LT'), Type.Literal('LTE')]),
        threshold: Decimal,
      }), { maxItems: 50 }),
    }), { maxItems: 100 })),
    pickupOptions: Type.Optional(Type.Array(Type.Object({
      code: Type.String({ minLength: 1, maxLength: 100 }),
      title: Type.String({ maxLength: 200 }),
      cost: Decimal,
      instructions: Type.Optional(Type.String({ maxLength: 1000 })),
      address: Type.Optional(Address),
    }), { maxItems: 20 })),
    tax: Type.Optional(Type.Union([Type.Null(), Type.Object({
      pricesIncludeTax: Type.Optional(Type.Boolean()),
      taxShipping: Type.Optional(Type.Boolean()),
      rates: Type.Array(Type.Object({
        country: Type.String({ minLength: 2, maxLength: 2 }),
        subdivision: Type.Optional(Type.String({ maxLength: 10 })),
        rate: Decimal,
        name: Type.Optional(Type.String({ maxLength: 100 })),
      }), { maxItems: 200 }),
    })])),
    paymentProvider: Type.Optional(Type.String({ maxLength: 50 })),
  }),
});

export function commerceSettingsRoutes(settings: CommerceSettingsService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    // Shipping regions and rules, pickup, tax and the inventory trigger (Bodega's own call).
    const path = '/_api/bodega/v1/commerce-settings';
    const config = { access: 'staff' } as const;
    app.get(path, { config }, async (req) => ({ settings: await settings.stored(req.ctx) }));
    app.patch(path, { config, schema: { body: SettingsBody } }, async (req) => ({
      settings: await settings.update(req.ctx, req.body.settings),
    }));
  };
}
