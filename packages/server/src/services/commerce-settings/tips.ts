// A site's tip settings (the official tipSettings, one per site), kept under `settings.commerce.tips`
// with decimal strings, read into model.ts's TipSettings for pricing. Tips are off until the owner
// turns them on.
import type { FieldViolation } from '../../platform/errors.js';
import { COMMERCE_SETTINGS_LIMITS as L, TIP_SETTINGS_TYPES, TIP_SPLITS } from '../../platform/field-limits.js';
import { compareDecimal, MoneyError, parseAmount, parseDecimal } from '../../platform/money.js';
import type { TipSettings, TipSettingsType, TipSplit } from './model.js';

/** The stored (and back-office wire) form. */
export interface StoredTipSettings {
  enabled?: boolean;
  tipType?: TipSettingsType;
  presets?: { value: string; default?: boolean }[];
  allowCustomAmount?: boolean;
  split?: TipSplit;
}

export const DEFAULT_TIP_SETTINGS: Required<StoredTipSettings> = {
  enabled: false,
  tipType: 'PERCENTAGE',
  presets: [{ value: '10', default: false }, { value: '15', default: true }, { value: '20', default: false }],
  allowCustomAmount: true,
  split: 'EQUAL',
};

/** Reads stored tip settings over the defaults, collecting what is wrong (field names under `tips.`). */
export function readTipSettings(stored: StoredTipSettings | undefined, currency: string, violations: FieldViolation[]): TipSettings {
  const s = { ...DEFAULT_TIP_SETTINGS, ...(stored ?? {}) };
  if (!TIP_SETTINGS_TYPES.includes(s.tipType)) {
    violations.push({ field: 'tips.tipType', rule: 'INVALID_ENUM_VALUE', description: `must be one of ${TIP_SETTINGS_TYPES.join(', ')}`, data: { allowedValues: TIP_SETTINGS_TYPES } });
  }
  if (!TIP_SPLITS.includes(s.split)) {
    violations.push({ field: 'tips.split', rule: 'INVALID_ENUM_VALUE', description: `must be one of ${TIP_SPLITS.join(', ')}`, data: { allowedValues: TIP_SPLITS } });
  }
  if (s.presets.length < 1 || s.presets.length > L.tipPresets) {
    violations.push({ field: 'tips.presets', rule: 'VALIDATION', description: `between 1 and ${L.tipPresets} presets` });
  }
  if (s.presets.filter((p) => p.default).length > 1) {
    violations.push({ field: 'tips.presets', rule: 'VALIDATION', description: 'at most one preset is the default (CANNOT_HAVE_MORE_THAN_ONE_DEFAULT_PRESET)' });
  }
  const presets = s.presets.map((preset, i) => {
    const field = `tips.presets[${i}].value`;
    try {
      if (s.tipType === 'AMOUNT') {
        parseAmount(preset.value, currency); // an amount in the shop's currency, or a violation
        return { value: preset.value, default: preset.default ?? false };
      }
      const percent = parseDecimal(preset.value);
      if (percent.units < 0n || percent.scale > 2) throw new MoneyError('FORMAT', `"${preset.value}" is not a percentage like 15 or 12.5`);
      if (compareDecimal(preset.value, L.tipPercentMax) > 0) {
        violations.push({ field, rule: 'DECIMAL_LTE', description: `a percentage preset is at most ${L.tipPercentMax} (PRESET_PERCENTAGE_TOO_HIGH)` });
      }
    } catch (error) {
      if (!(error instanceof MoneyError)) throw error;
      violations.push({ field, rule: 'FORMAT', description: error.message });
    }
    return { value: preset.value, default: preset.default ?? false };
  });
  return { enabled: s.enabled, tipType: s.tipType, presets, allowCustomAmount: s.allowCustomAmount, split: s.split };
}
