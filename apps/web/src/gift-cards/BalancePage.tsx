import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Link } from '../router/Router.js';
import { plainError } from '../shop/errors.js';
import { Field } from '../ui/Field.js';
import { Notice } from '../ui/Notice.js';
import { usePageTitle } from '../ui/usePageTitle.js';
import { useCheckBalance } from './queries.js';

const schema = z.object({
  code: z.string().trim().min(16, 'A gift card code has 16 letters and digits, like ABCD-EFGH-JKMN-PQRS').max(40, 'That is longer than a gift card code'),
});
type Form = z.infer<typeof schema>;

/** The shop's balance check: a code in, the card's balance and state out. */
export default function BalancePage() {
  usePageTitle('Gift card balance');
  const check = useCheckBalance();
  const { register, handleSubmit, formState: { errors } } = useForm<Form>({ resolver: zodResolver(schema), defaultValues: { code: '' } });
  const card = check.data;
  return (
    <div className="container narrow gift-card-balance">
      <h1>Gift card balance</h1>
      <p>Enter the code from your gift card e-mail to see what is left on it.</p>
      <form onSubmit={(e) => void handleSubmit((v) => check.mutate(v.code))(e)} noValidate aria-busy={check.isPending}>
        <Field label="Gift card code" autoComplete="off" spellCheck={false} hint="16 letters and digits; dashes and spaces are fine." {...register('code')} error={errors.code?.message} />
        <button type="submit" className="button" disabled={check.isPending}>{check.isPending ? 'Checking…' : 'Check balance'}</button>
      </form>
      <div aria-live="polite">
        {check.isError && <Notice kind="error">{plainError(check.error)}</Notice>}
        {card && (
          <section className="panel" aria-labelledby="balance-heading">
            <h2 id="balance-heading">Balance: {card.balance.formattedAmount}</h2>
            <p>Gift card {card.obfuscatedCode}, worth {card.initialValue.formattedAmount} when issued.</p>
            {card.status === 'DISABLED' && <Notice kind="error">This card was disabled by the shop and cannot be used.</Notice>}
            {card.expired && <Notice kind="error">This card has expired.</Notice>}
            {card.expirationDate && !card.expired && <p>Use it by {new Date(card.expirationDate).toLocaleDateString('en-US', { dateStyle: 'long' })}.</p>}
            <p><Link to="/products">Go shopping</Link></p>
          </section>
        )}
      </div>
    </div>
  );
}
