import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Link } from '../router/Router.js';
import { plainError } from '../shop/errors.js';
import { Field } from '../ui/Field.js';
import { Notice } from '../ui/Notice.js';
import { usePageTitle } from '../ui/usePageTitle.js';
import { useResendLinks } from './queries.js';

const schema = z.object({
  orderNumber: z.string().trim().regex(/^#?\d{1,12}$/, 'The order number from your confirmation e-mail, like 10001'),
  email: z.string().trim().email('The e-mail address you ordered with'),
});
type Form = z.infer<typeof schema>;

/** A guest asks for the download links of an order again; they go to the order's own address. */
export default function GuestDownloadsPage() {
  usePageTitle('Get your download links');
  const resend = useResendLinks();
  const { register, handleSubmit, formState: { errors } } = useForm<Form>({ resolver: zodResolver(schema), defaultValues: { orderNumber: '', email: '' } });
  const send = (v: Form) => resend.mutate({ orderNumber: Number(v.orderNumber.replace('#', '')), email: v.email });
  return (
    <div className="container narrow guest-downloads">
      <h1>Get your download links</h1>
      <p>Bought files without an account? Enter your order number and e-mail, and we mail fresh links to the address the order was placed with.</p>
      <form onSubmit={(e) => void handleSubmit(send)(e)} noValidate aria-busy={resend.isPending}>
        <Field label="Order number" inputMode="numeric" autoComplete="off" {...register('orderNumber')} error={errors.orderNumber?.message} />
        <Field label="E-mail" type="email" autoComplete="email" {...register('email')} error={errors.email?.message} />
        <button type="submit" className="button" disabled={resend.isPending}>{resend.isPending ? 'Sending…' : 'Mail me the links'}</button>
      </form>
      <div aria-live="polite">
        {resend.isError && <Notice kind="error">{plainError(resend.error)}</Notice>}
        {resend.isSuccess && <Notice kind="success">If that order has files and was placed with that address, its links are on their way. Check your inbox in a minute.</Notice>}
      </div>
      <p className="muted small">Have an account? Your files are on your <Link to="/account/downloads">Downloads page</Link>.</p>
    </div>
  );
}
