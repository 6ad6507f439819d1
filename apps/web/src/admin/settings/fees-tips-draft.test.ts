// The "Fees and tips" form's draft: what the settings call answers reads into the form and back
// unchanged, and the schema refuses what the server would (in words, beside the field).
import { describe, expect, it } from 'vitest';
import type { CommerceSettings } from '@bodega/sdk';
import { feesTipsSchema, fromFeesTipsDraft, toFeesTipsDraft } from './fees-tips-draft.js';

const SETTINGS: CommerceSettings = {
  additionalFees: [{ kind: 'HANDLING_FEE', name: 'Handling', amount: '2.50', taxable: true }, { kind: 'INSURANCE', name: 'Insurance', percent: '1.5', taxable: false }],
  tips: { enabled: true, tipType: 'PERCENTAGE', presets: [{ value: '10', default: false }, { value: '12.5', default: true }], allowCustomAmount: false, split: 'PROPORTIONAL' },
};

const messages = (draft: unknown) => {
  const parsed = feesTipsSchema.safeParse(draft);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('fees and tips draft', () => {
  it('reads the settings and sends them back as they were', () => {
    const draft = toFeesTipsDraft(SETTINGS);
    expect(draft.tips.suggested).toBe('1');
    expect(messages(draft)).toEqual([]);
    expect(fromFeesTipsDraft(draft)).toEqual(SETTINGS);
  });

  it('starts with tips off and the three usual percentages when nothing is set', () => {
    const draft = toFeesTipsDraft({});
    expect([draft.fees, draft.tips.enabled, draft.tips.presets.map((p) => p.value), draft.tips.suggested]).toEqual([[], false, ['10', '15', '20'], '1']);
  });

  it('refuses two fees of a kind, a bad amount, a percent over 100 and no tips to choose from', () => {
    const draft = toFeesTipsDraft(SETTINGS);
    draft.fees[1] = { ...draft.fees[1], kind: 'HANDLING_FEE', basis: 'PERCENT', value: '101' };
    draft.fees[0] = { ...draft.fees[0], value: '2.505' };
    draft.tips.presets = [{ value: '150' }];
    expect(messages(draft)).toEqual([
      'fees.0.value: An amount such as 2.50',
      'fees.1.value: A percent from 0 to 100, such as 1.5',
      'fees.1.kind: There is already a handling fee: one fee of each kind',
      'tips.presets.0.value: A percent up to 100, such as 15 or 12.5',
    ]);
    expect(messages({ ...draft, fees: [], tips: { ...draft.tips, presets: [] } })).toEqual(['tips.presets: Offer at least one tip']);
  });
});
