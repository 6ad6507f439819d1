/** The tip's "Other amount" form schema, loaded after the checkout shows (as form.ts: zod stays out of the first load). */
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';

const schema = z.object({
  amount: z.string().trim()
    .min(1, 'Enter an amount, like 5 or 2.50')
    .regex(/^\d{1,9}(\.\d{1,2})?$/, 'Enter an amount with at most two decimals, like 5 or 2.50'),
});
export type TipForm = z.infer<typeof schema>;

export const resolver = zodResolver(schema);
