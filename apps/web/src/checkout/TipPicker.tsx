import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { Checkout, TipChoice } from '@bodega/sdk';
import { TIPS_APP_ID } from '@bodega/sdk';
import { plainError } from '../shop/errors.js';
import { Field } from '../ui/Field.js';
import { lazyResolver, usePreload } from '../ui/lazyResolver.js';
import { formatMoney } from '../ui/money.js';
import { Notice } from '../ui/Notice.js';
import type { TipForm } from './tip-form.js';
import { useSetTip, useTipChoice, useTipSettings } from './queries.js';

const loadForm = () => import('./tip-form.js');

type Mode = 'none' | 'custom' | `preset:${string}`;

function modeOf(choice: TipChoice | null | undefined): Mode {
  if (!choice || /^0+(\.0+)?$/.test(choice.value)) return 'none';
  return choice.tipType === 'CUSTOM' ? 'custom' : `preset:${Number(choice.value)}`;
}

/**
 * The checkout's tip, when the shop takes tips: "No tip", the shop's presets and "Other amount",
 * as one radio group (arrow keys move through it). The amount field is always there, enabled with
 * "Other amount", so choosing never moves the page. The server prices the tip; the totals below
 * show it as a "Tip" row, and a polite live region says what changed.
 */
export function CheckoutTip({ checkout, checkoutId }: { checkout: Checkout; checkoutId: string }) {
  const settings = useTipSettings();
  const choice = useTipChoice(checkoutId);
  const setTip = useSetTip(checkoutId);
  const [picked, setPicked] = useState<Mode | undefined>(undefined);
  const name = useId();
  const { register, handleSubmit, formState: { errors } } = useForm<TipForm>({
    resolver: lazyResolver(loadForm),
    defaultValues: { amount: choice.data?.tipType === 'CUSTOM' ? choice.data.value : '' },
  });
  usePreload(loadForm);
  const s = settings.data;
  if (!s?.allowCustomerTip || choice.isPending) return null;
  const mode = picked ?? modeOf(choice.data);
  const currency = checkout.currency ?? 'USD';
  const tipFee = checkout.additionalFees?.find((f) => f.providerAppId === TIPS_APP_ID);
  const percent = s.tipType !== 'AMOUNT';
  const label = (value: number) => (percent ? `${value}%` : formatMoney(String(value), currency));

  function choose(next: Mode) {
    setPicked(next);
    if (next === 'custom') return;
    const tip: TipChoice = next === 'none' ? { tipType: 'CUSTOM', value: '0' } : { tipType: percent ? 'PERCENTAGE' : 'AMOUNT', value: next.slice('preset:'.length) };
    setTip.mutate(tip);
  }

  return (
    // Nothing is disabled while a tip is saved (focus stays where the shopper is); choices are sent in order.
    <section className="tip-picker" aria-labelledby={`${name}-heading`} aria-busy={setTip.isPending}>
      <h3 id={`${name}-heading`}>Add a tip</h3>
      <fieldset className="tip-options" aria-describedby={`${name}-note`}>
        <legend className="visually-hidden">Tip</legend>
        <label><input type="radio" name={name} checked={mode === 'none'} onChange={() => choose('none')} /> <span>No tip</span></label>
        {(s.presets ?? []).map((p) => (
          <label key={p.value}>
            <input type="radio" name={name} checked={mode === `preset:${p.value}`} onChange={() => choose(`preset:${p.value}`)} />
            {' '}<span>{label(p.value)}{p.default ? <span className="visually-hidden"> (suggested)</span> : null}</span>
          </label>
        ))}
        {s.allowCustomAmount !== false && (
          <label><input type="radio" name={name} checked={mode === 'custom'} onChange={() => choose('custom')} /> <span>Other amount</span></label>
        )}
      </fieldset>
      {s.allowCustomAmount !== false && (
        <form className="tip-amount" noValidate onSubmit={(e) => void handleSubmit((v) => setTip.mutate({ tipType: 'CUSTOM', value: v.amount }))(e)}>
          <Field label={`Tip amount (${currency})`} inputMode="decimal" autoComplete="off" disabled={mode !== 'custom'} {...register('amount')} error={errors.amount?.message} />
          <button type="submit" className="button secondary" disabled={mode !== 'custom'}>Add tip</button>
        </form>
      )}
      <p id={`${name}-note`} className="muted small">{percent ? 'Percentages are of your items after discounts. ' : ''}Tips go to the shop and are not taxed.</p>
      <p className="visually-hidden" role="status" aria-live="polite">{setTip.isSuccess ? (tipFee ? `Tip of ${tipFee.price?.formattedAmount ?? ''} added. New total ${checkout.priceSummary?.total?.formattedAmount ?? ''}.` : 'No tip.') : ''}</p>
      {setTip.isError && <Notice kind="error">{plainError(setTip.error)}</Notice>}
    </section>
  );
}
