/**
 * The checkout form's schema, in a bundle of its own: CheckoutForm loads it (and zod with it) after
 * the page shows, so zod is not part of the checkout's first load (`npm run bench -- bundle`).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';

const required = (message: string) => z.string().trim().min(1, message);
const schema = z.object({
  email: z.email('Enter a valid e-mail address, like name@example.com'),
  delivery: z.enum(['ship', 'pickup']),
  firstName: required('Enter your first name'),
  lastName: required('Enter your last name'),
  phone: z.string().trim().max(30),
  addressLine: z.string().trim(),
  city: z.string().trim(),
  region: z.string().trim().max(3, 'Use the 2-letter code, like NY'),
  postalCode: z.string().trim(),
  country: z.string(),
  billingSame: z.boolean(),
  billingAddressLine: z.string().trim(),
  billingCity: z.string().trim(),
  billingPostalCode: z.string().trim(),
  billingCountry: z.string(),
}).superRefine((v, ctx) => {
  const need = (ok: boolean, path: string, message: string) => { if (!ok) ctx.addIssue({ code: 'custom', path: [path], message }); };
  if (v.delivery === 'ship') {
    need(v.addressLine !== '', 'addressLine', 'Enter the street and number');
    need(v.city !== '', 'city', 'Enter the city');
    need(v.postalCode !== '', 'postalCode', 'Enter the postal code');
  }
  if (v.delivery === 'pickup' || !v.billingSame) {
    need(v.billingAddressLine !== '', 'billingAddressLine', 'Enter the billing street and number');
    need(v.billingCity !== '', 'billingCity', 'Enter the billing city');
    need(v.billingPostalCode !== '', 'billingPostalCode', 'Enter the billing postal code');
  }
});
export type Form = z.infer<typeof schema>;

export const resolver = zodResolver(schema);
