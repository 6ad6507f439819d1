// The official @wix/ecom tipSettings calls (queryTipSettings, updateTipSettings) at
// `/_api/tip-settings/v1/tip-settings…` (a custom host) and `/tip-settings/v1/tip-settings…`
// (www.wixapis.com): the site's one, default, tip settings, kept in the commerce settings'
// `tips` (tips.ts). Reading is for any token (the shop's checkout shows the presets); changing is
// the back office's, written to the audit log like every commerce setting.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { COMMERCE_SETTINGS_LIMITS as L, TIP_SETTINGS_TYPES, TIP_SPLITS } from '../../platform/field-limits.js';
import type { CommerceSettingsService } from './service.js';
import type { StoredTipSettings } from './tips.js';

const PREFIXES = ['/_api/tip-settings/v1/tip-settings', '/tip-settings/v1/tip-settings'];
const Nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Boolean> | ReturnType<typeof Type.Number>>(t: T) => Type.Optional(Type.Union([t, Type.Null()]));

const WireTipSettings = Type.Object({
  id: Type.String(),
  tipType: Type.String({ description: 'PERCENTAGE or AMOUNT: what the presets are.' }),
  presets: Type.Array(Type.Object({ value: Type.Number(), default: Type.Boolean() })),
  allowCustomerTip: Type.Boolean({ description: 'Whether the shop\'s checkout offers tips.' }),
  allowBusinessTipAtPayment: Type.Boolean(),
  allowCustomAmount: Type.Boolean(),
  allowEditDistribution: Type.Boolean(),
  autoTipOnCheckInEnabled: Type.Boolean(),
  staffDistributionMethod: Type.String({ description: 'EQUAL or PROPORTIONAL, kept as given.' }),
  default: Type.Boolean(),
}, { title: 'TipSettings' });

const TipSettingsInput = Type.Object({
  id: Nullable(Type.String({ maxLength: 100 })),
  tipType: Type.Optional(Type.Union(TIP_SETTINGS_TYPES.map((t) => Type.Literal(t)))),
  presets: Type.Optional(Type.Array(Type.Object({
    value: Type.Number({ minimum: 0, maximum: 1e12 }),
    default: Nullable(Type.Boolean()),
  }), { minItems: 1, maxItems: L.tipPresets })),
  allowCustomerTip: Nullable(Type.Boolean()),
  allowCustomAmount: Nullable(Type.Boolean()),
  staffDistributionMethod: Type.Optional(Type.Union(TIP_SPLITS.map((t) => Type.Literal(t)))),
  allowBusinessTipAtPayment: Nullable(Type.Boolean()),
  allowEditDistribution: Nullable(Type.Boolean()),
  autoTipOnCheckInEnabled: Nullable(Type.Boolean()),
  autoTipOnCheckInPercentage: Nullable(Type.Number()),
  revision: Nullable(Type.String({ maxLength: 40 })),
  default: Nullable(Type.Boolean()),
  locationId: Nullable(Type.String({ maxLength: 100 })),
  paymentTerminalId: Nullable(Type.String({ maxLength: 30 })),
  userId: Nullable(Type.String({ maxLength: 100 })),
  appId: Nullable(Type.String({ maxLength: 100 })),
});

function toWire(siteId: string, tips: Required<StoredTipSettings>) {
  return {
    id: siteId,
    tipType: tips.tipType,
    // The official shape has numbers; the stored values are decimals with at most two places.
    presets: tips.presets.map((p) => ({ value: Number(p.value), default: p.default ?? false })),
    allowCustomerTip: tips.enabled,
    allowBusinessTipAtPayment: false,
    allowCustomAmount: tips.allowCustomAmount,
    allowEditDistribution: false,
    autoTipOnCheckInEnabled: false,
    staffDistributionMethod: tips.split,
    default: true,
  };
}

export function tipSettingsRoutes(settings: CommerceSettingsService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    for (const prefix of PREFIXES) {
      app.post(`${prefix}/query`, {
        config: { access: 'shop' },
        schema: { response: { 200: Type.Object({ tipSettings: Type.Array(WireTipSettings), pagingMetadata: Type.Object({ count: Type.Integer(), cursors: Type.Object({}) }) }) } },
      }, async (req) => ({ tipSettings: [toWire(req.ctx.siteId, (await settings.stored(req.ctx)).tips)], pagingMetadata: { count: 1, cursors: {} } }));

      app.patch(prefix, {
        config: { access: 'staff' },
        schema: { body: Type.Object({ tipSettings: TipSettingsInput }), response: { 200: Type.Object({ tipSettings: WireTipSettings }) } },
      }, async (req) => {
        const input = req.body.tipSettings;
        const current = (await settings.stored(req.ctx)).tips;
        const tips: StoredTipSettings = {
          ...current,
          ...(input.tipType !== undefined && { tipType: input.tipType }),
          ...(input.presets && { presets: input.presets.map((p) => ({ value: String(p.value), default: p.default ?? false })) }),
          ...(typeof input.allowCustomerTip === 'boolean' && { enabled: input.allowCustomerTip }),
          ...(typeof input.allowCustomAmount === 'boolean' && { allowCustomAmount: input.allowCustomAmount }),
          ...(input.staffDistributionMethod !== undefined && { split: input.staffDistributionMethod }),
        };
        return { tipSettings: toWire(req.ctx.siteId, (await settings.update(req.ctx, { tips })).tips) };
      });
    }
  };
}
