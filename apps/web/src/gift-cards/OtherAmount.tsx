/**
 * The "Other amount" field of a gift card's page, in a bundle of its own (ProductPage loads it): its
 * react-hook-form and zod stay out of every product page's first load.
 */
import { forwardRef, useId, useImperativeHandle, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { minorUnits, type AmountLimits, type OtherAmountHandle } from './amount.js';

interface AmountForm {
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

interface Props {
  limits: AmountLimits;
  /** The amount typed so far (kept by the page, so it survives choosing a listed amount and back). */
  value: string;
  onChange: (value: string) => void;
}

/** The amount a shopper types when "Other amount" is chosen; its error is announced as it appears. */
const OtherAmount = forwardRef<OtherAmountHandle, Props>(function OtherAmount({ limits, value, onChange }, ref) {
  const id = useId();
  const schema = useMemo(() => amountSchema(limits), [limits.min, limits.max, limits.currency]);
  const form = useForm<AmountForm>({ resolver: zodResolver(schema), defaultValues: { amount: value } });
  useImperativeHandle(ref, () => ({
    amount: async () => ((await form.trigger('amount', { shouldFocus: true })) ? form.getValues('amount').trim() : undefined),
  }), [form]);
  const error = form.formState.errors.amount?.message;
  return (
    <div className="field other-amount">
      <label htmlFor={id}>Amount ({limits.currency})</label>
      <input id={id} inputMode="decimal" autoComplete="off" maxLength={20} aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint ${id}-error`}
        {...form.register('amount', {
          onChange: (event: { target: { value: string } }) => {
            onChange(event.target.value);
            // Once told what is wrong, the shopper sees it go as soon as the amount is right.
            if (form.formState.errors.amount) void form.trigger('amount');
          },
        })} />
      <p id={`${id}-hint`} className="hint">From {limits.min} to {limits.max} {limits.currency}.</p>
      <p id={`${id}-error`} className="error" role="alert">{error ?? ''}</p>
    </div>
  );
});
export default OtherAmount;
