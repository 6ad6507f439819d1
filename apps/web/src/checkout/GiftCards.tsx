import { useForm } from 'react-hook-form';
import type { Checkout } from '@bodega/sdk';
import { plainError } from '../shop/errors.js';
import { Field } from '../ui/Field.js';
import { lazyResolver, usePreload } from '../ui/lazyResolver.js';
import { Notice } from '../ui/Notice.js';
import type { GiftCardForm as Form } from './gift-card-form.js';
import { useApplyGiftCard, useRemoveGiftCards } from './queries.js';

const loadForm = () => import('./gift-card-form.js');

/** The checkout's gift cards: enter a code, see what each card pays, take them off. */
export function CheckoutGiftCards({ checkout, checkoutId }: { checkout: Checkout; checkoutId: string }) {
  const apply = useApplyGiftCard(checkoutId);
  const remove = useRemoveGiftCards(checkoutId);
  const { register, handleSubmit, reset, formState: { errors } } = useForm<Form>({ resolver: lazyResolver(loadForm), defaultValues: { code: '' } });
  usePreload(loadForm);
  const cards = checkout.giftCards ?? (checkout.giftCard ? [checkout.giftCard] : []);

  function submit(v: Form) {
    apply.mutate(v.code, { onSuccess: () => reset({ code: '' }) });
  }

  return (
    <section className="gift-cards" aria-labelledby="gift-cards-heading">
      <h3 id="gift-cards-heading" className="visually-hidden">Gift card</h3>
      {cards.length > 0 && (
        <ul className="gift-card-lines" role="list">
          {cards.map((card) => (
            <li key={card._id ?? card.obfuscatedCode}>
              <span>Gift card {card.obfuscatedCode?.slice(-4) ? `ending ${card.obfuscatedCode.slice(-4)}` : ''}</span>
              <span>{card.error?.applicationError?.description ?? `−${card.amount?.formattedAmount ?? ''}`}</span>
            </li>
          ))}
        </ul>
      )}
      {cards.length > 0 && (
        <button type="button" className="button secondary small" onClick={() => remove.mutate()} disabled={remove.isPending}>
          {cards.length > 1 ? 'Remove the gift cards' : 'Remove the gift card'}
        </button>
      )}
      <form onSubmit={(e) => void handleSubmit(submit)(e)} noValidate className="gift-card-form" aria-busy={apply.isPending}>
        <Field label="Gift card code" autoComplete="off" spellCheck={false} {...register('code')} error={errors.code?.message} />
        <button type="submit" className="button secondary" disabled={apply.isPending}>{apply.isPending ? 'Applying…' : 'Apply'}</button>
      </form>
      {apply.isError && <Notice kind="error">{plainError(apply.error)}</Notice>}
      {remove.isError && <Notice kind="error">{plainError(remove.error)}</Notice>}
    </section>
  );
}
