/** The gift-card code form's schema, loaded after the checkout shows (as form.ts: zod stays out of the first load). */
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';

const schema = z.object({
  code: z.string().trim().min(16, 'A gift card code has 16 letters and digits, like ABCD-EFGH-JKMN-PQRS').max(40, 'That is longer than a gift card code'),
});
export type GiftCardForm = z.infer<typeof schema>;

export const resolver = zodResolver(schema);
