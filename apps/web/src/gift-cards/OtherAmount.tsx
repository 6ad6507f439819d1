import { useId } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { z } from 'zod';
import type { GiftCardCustomAmounts } from '@bodega/sdk';

/** The custom amounts a gift-card product takes: both limits as the server writes them ("5.00"). */
export interface AmountLimits {
  min: string;
  max: string;
  currency: string;
}

export function amountLimits(answer: GiftCardCustomAmounts | undefined, productId: string | undefined): AmountLimits | undefined {
  if (!answer || !productId || !answer.productIds.includes(productId) || answer.minCustomAmount === null || answer.maxCustomAmount === null) return undefined;
  return { min: answer.minCustomAmount, max: answer.maxCustomAmount, currency: answer.currency };
}

/** "12.5" → minor units for a currency of `places` decimals; undefined when not a plain amount or too fine. */
function minorUnits(value: string, places: number): bigint | undefined {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(value);
  if (!match || (match[2]?.length ?? 0) > places) return undefined;
  return BigInt(match[1] + (match[2] ?? '').padEnd(places, '0'));
}

export interface AmountForm {
  amount: string;
}

/** The amount field's rules, the server's own (commerce/custom-amount.ts), in words. */
export function amountSchema(limits: AmountLimits | undefined) {
  const places = limits?.min.split('.')[1]?.length ?? 2;
  const min = limits ? minorUnits(limits.min, places) ?? 0n : 0n;
  const max = limits ? minorUnits(limits.max, places) ?? 0n : 0n;
  const range = limits ? `between ${limits.min} and ${limits.max} ${limits.currency}` : '';
  return z.object({
    amount: z.string().trim().min(1, 'Enter the amount of the gift card.').superRefine((value, ctx) => {
      const units = minorUnits(value, places);
      if (units === undefined) {
        ctx.addIssue({ code: 'custom', message: places ? `Enter an amount like 25 or 25.50, with at most ${places} decimals.` : 'Enter a whole amount like 25.' });
      } else if (units < min || units > max) {
        ctx.addIssue({ code: 'custom', message: `Choose an amount ${range}.` });
      }
    }),
  });
}

/** The amount a shopper types when "Other amount" is chosen; its error is announced as it appears. */
export function OtherAmountField({ form, limits }: { form: UseFormReturn<AmountForm>; limits: AmountLimits }) {
  const id = useId();
  const error = form.formState.errors.amount?.message;
  return (
    <div className="field other-amount">
      <label htmlFor={id}>Amount ({limits.currency})</label>
      <input id={id} inputMode="decimal" autoComplete="off" maxLength={20} aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint ${id}-error`}
        // Once told what is wrong, the shopper sees it go as soon as the amount is right.
        {...form.register('amount', { onChange: () => { if (form.formState.errors.amount) void form.trigger('amount'); } })} />
      <p id={`${id}-hint`} className="hint">From {limits.min} to {limits.max} {limits.currency}.</p>
      <p id={`${id}-error`} className="error" role="alert">{error ?? ''}</p>
    </div>
  );
}
