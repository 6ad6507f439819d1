import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { plainError } from '../shop/errors.js';
import { useCurrentMember } from '../shop/member.js';
import { Field } from '../ui/Field.js';
import { Notice } from '../ui/Notice.js';
import { useAskBackInStock } from './queries.js';

const schema = z.object({ email: z.string().trim().email('Enter an e-mail address like name@example.com') });
type Form = z.infer<typeof schema>;

export interface SoldOutItem {
  productId: string;
  variantId?: string;
  /** The product's name with the chosen options, for the mail. */
  name: string;
  price?: string;
  slug: string;
}

/** On a sold-out variant: the shopper leaves an address and is mailed once it is back. */
export default function BackInStock({ item }: { item: SoldOutItem }) {
  const member = useCurrentMember();
  const ask = useAskBackInStock();
  const { register, handleSubmit, formState: { errors } } = useForm<Form>({
    resolver: zodResolver(schema),
    values: { email: member.data?.loginEmail ?? '' },
  });
  if (ask.isSuccess) {
    return <Notice kind="success">Thanks! We will e-mail {ask.data.email} when {item.name} is back in stock.</Notice>;
  }
  const submit = (v: Form) => ask.mutate({
    productId: item.productId, variantId: item.variantId, email: v.email,
    itemUrl: `${window.location.origin}/products/${item.slug}`, item: { name: item.name, ...(item.price ? { price: item.price } : {}) },
  });
  return (
    <form className="back-in-stock panel" onSubmit={handleSubmit(submit)} noValidate aria-labelledby="back-in-stock-heading">
      <h2 id="back-in-stock-heading">Email me when it's back</h2>
      <Field label="E-mail" type="email" autoComplete="email" {...register('email')} error={errors.email?.message} />
      <button type="submit" className="button" disabled={ask.isPending}>{ask.isPending ? 'Sending…' : "Email me when it's back"}</button>
      {ask.isError && <Notice kind="error">{plainError(ask.error)}</Notice>}
    </form>
  );
}
