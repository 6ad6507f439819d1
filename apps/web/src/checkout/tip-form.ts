/** The tip's "Other amount" form schema, loaded after the checkout shows (as form.ts: zod stays out of the first load). */
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { TIP_AMOUNT_PATTERN } from '@bodega/sdk';

const schema = z.object({
  amount: z.string().trim()
    .min(1, 'Enter an amount, like 5 or 2.50')
    .regex(new RegExp(TIP_AMOUNT_PATTERN), 'Enter an amount with at most two decimals, like 5 or 2.50'),
});
export type TipForm = z.infer<typeof schema>;

export const resolver = zodResolver(schema);
