import { z } from 'zod';
import {
  ADDITIONAL_FEE_KINDS, COMMERCE_SETTINGS_LIMITS as L, TIP_SETTINGS_TYPES, TIP_SPLITS,
  type AdditionalFeeSetting, type CommerceSettings, type TipSettingsSetting,
} from '@bodega/sdk';

// Amounts and percents are kept and sent as the decimal strings typed; they are only checked.
const MONEY = /^\d{1,9}(\.\d{1,2})?$/;
const PERCENT = /^\d{1,3}(\.\d{1,2})?$/;

/**
 * The "Fees and tips" form as one draft: the additional fees (each an amount or a percent of the
 * goods after discounts, taxed or not) and the tip settings. `suggested` is the index of the
 * suggested preset ("" none).
 */
export interface DraftFee { kind: AdditionalFeeSetting['kind']; name: string; basis: 'AMOUNT' | 'PERCENT'; value: string; taxable: boolean }
export interface FeesTipsDraft {
  fees: DraftFee[];
  tips: {
    enabled: boolean;
    tipType: NonNullable<TipSettingsSetting['tipType']>;
    presets: { value: string }[];
    suggested: string;
    allowCustomAmount: boolean;
    split: NonNullable<TipSettingsSetting['split']>;
  };
}

export const FEE_LABELS: Record<DraftFee['kind'], string> = { HANDLING_FEE: 'Handling fee', INSURANCE: 'Insurance' };

export function toFeesTipsDraft(s: CommerceSettings): FeesTipsDraft {
  const tips = s.tips ?? {};
  const presets = (tips.presets ?? [{ value: '10' }, { value: '15', default: true }, { value: '20' }]);
  const suggested = presets.findIndex((p) => p.default);
  return {
    fees: (s.additionalFees ?? []).map((f) => ({
      kind: f.kind, name: f.name, taxable: f.taxable ?? false,
      ...(f.percent !== undefined ? { basis: 'PERCENT' as const, value: f.percent } : { basis: 'AMOUNT' as const, value: f.amount ?? '' }),
    })),
    tips: {
      enabled: tips.enabled ?? false,
      tipType: tips.tipType ?? 'PERCENTAGE',
      presets: presets.map((p) => ({ value: p.value })),
      suggested: suggested < 0 ? '' : String(suggested),
      allowCustomAmount: tips.allowCustomAmount ?? true,
      split: tips.split ?? 'EQUAL',
    },
  };
}

/** Only the fees and the tips: the rest of the commerce settings stay as they are. */
export function fromFeesTipsDraft(d: FeesTipsDraft): Pick<CommerceSettings, 'additionalFees' | 'tips'> {
  return {
    additionalFees: d.fees.map((f) => ({ kind: f.kind, name: f.name.trim(), taxable: f.taxable, ...(f.basis === 'PERCENT' ? { percent: f.value } : { amount: f.value }) })),
    tips: {
      enabled: d.tips.enabled,
      tipType: d.tips.tipType,
      presets: d.tips.presets.map((p, i) => ({ value: p.value, default: String(i) === d.tips.suggested })),
      allowCustomAmount: d.tips.allowCustomAmount,
      split: d.tips.split,
    },
  };
}

/** What the settings call accepts for fees and tips, checked before sending with a message in words per field. */
export const feesTipsSchema = z.object({
  fees: z.array(z.object({
    kind: z.enum(ADDITIONAL_FEE_KINDS),
    name: z.string().refine((v) => v.trim() !== '', 'Name the fee as shoppers will see it').refine((v) => v.trim().length <= L.title, `At most ${L.title} characters`),
    basis: z.enum(['AMOUNT', 'PERCENT']),
    value: z.string(),
    taxable: z.boolean(),
  }).superRefine((fee, ctx) => {
    if (fee.basis === 'AMOUNT' ? MONEY.test(fee.value) : PERCENT.test(fee.value) && Number(fee.value) <= 100) return;
    ctx.addIssue({ code: 'custom', path: ['value'], message: fee.basis === 'AMOUNT' ? 'An amount such as 2.50' : 'A percent from 0 to 100, such as 1.5' });
  })).max(L.additionalFees, `At most ${L.additionalFees} fees: one of each kind`).superRefine((fees, ctx) => {
    fees.forEach((fee, i) => {
      if (fees.findIndex((f) => f.kind === fee.kind) < i) ctx.addIssue({ code: 'custom', path: [i, 'kind'], message: `There is already a ${FEE_LABELS[fee.kind].toLowerCase()}: one fee of each kind` });
    });
  }),
  tips: z.object({
    enabled: z.boolean(),
    tipType: z.enum(TIP_SETTINGS_TYPES),
    presets: z.array(z.object({ value: z.string() })).min(1, 'Offer at least one tip').max(L.tipPresets, `At most ${L.tipPresets} tips to choose from`),
    suggested: z.string(),
    allowCustomAmount: z.boolean(),
    split: z.enum(TIP_SPLITS),
  }).superRefine((tips, ctx) => {
    tips.presets.forEach((p, i) => {
      const ok = tips.tipType === 'AMOUNT' ? MONEY.test(p.value) : PERCENT.test(p.value) && Number(p.value) <= L.tipPercentMax;
      if (!ok) ctx.addIssue({ code: 'custom', path: ['presets', i, 'value'], message: tips.tipType === 'AMOUNT' ? 'An amount such as 2 or 2.50' : `A percent up to ${L.tipPercentMax}, such as 15 or 12.5` });
    });
  }),
});
