import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import type { GiftCard } from '@bodega/sdk';
import { Field } from '../../ui/Field.js';
import { Notice } from '../../ui/Notice.js';
import { plainError } from '../../shop/errors.js';
import { actionsColumn, ListTable } from '../ListTable.js';
import { dateTime, Modal, PageHead, Pager, useResult } from '../ui.js';
import { GIFT_CARDS_LIMIT, useGiftCard, useGiftCardAction, useGiftCards } from './queries.js';

const money = z.string().trim().regex(/^\d+(\.\d{1,2})?$/, 'Enter an amount like 25 or 25.00');
const issueSchema = z.object({
  amount: money,
  recipientName: z.string().trim().max(200),
  recipientEmail: z.union([z.literal(''), z.email('Enter an e-mail like name@example.com')]),
  message: z.string().trim().max(1000),
  note: z.string().trim().max(500),
});
type IssueForm = z.infer<typeof issueSchema>;
const adjustSchema = z.object({
  amount: z.string().trim().regex(/^-?\d+(\.\d{1,2})?$/, 'Enter an amount like 5.00, or -5.00 to take it off'),
  reason: z.string().trim().min(1, 'Say why (it is kept in the ledger and the audit log)').max(500),
});
type AdjustForm = z.infer<typeof adjustSchema>;

const stateOf = (c: GiftCard) => (c.status === 'DISABLED' ? 'Disabled' : c.expired ? 'Expired' : 'Active');

/** Gift cards: search, issue one by hand, open one to see its ledger, adjust, disable. */
export default function GiftCardsPage() {
  const [search, setSearch] = useState('');
  const [offset, setOffset] = useState(0);
  const cards = useGiftCards(search, offset);
  const result = useResult();
  const [issuing, setIssuing] = useState(false);
  const [open, setOpen] = useState<string | null>(null);
  return (
    <>
      <PageHead title="Gift cards" lead="Cards bought in the shop and issued by hand. Every change of a balance is in the card's ledger.">
        <button type="button" className="button" onClick={() => { result.clear(); setIssuing(true); }}>Issue a gift card</button>
      </PageHead>
      {result.view}
      <div className="filters-bar">
        <div className="filter">
          <label htmlFor="gift-card-search">Search</label>
          <input id="gift-card-search" type="search" value={search} placeholder="Code, e-mail or name" onChange={(e) => { setSearch(e.target.value); setOffset(0); }} />
        </div>
      </div>
      <ListTable query={cards} items={cards.data?.giftCards} caption="Gift cards" loading="Loading gift cards…"
        empty={search ? 'No gift card matches.' : 'No gift cards yet. They appear here when one is bought or issued.'}
        columns={[{ label: 'Code' }, { label: 'Balance' }, { label: 'For' }, { label: 'State' }, { label: 'Issued' }, actionsColumn]}
        row={(c) => (
          <tr key={c.id}>
            <td className="card-title"><code>{c.code ?? c.obfuscatedCode}</code><span className="block muted small">{c.source === 'ORDER' ? 'Bought in the shop' : 'Issued by hand'}</span></td>
            <td data-label="Balance">{c.balance.formattedAmount} <span className="muted small">of {c.initialValue.formattedAmount}</span></td>
            <td data-label="For">{c.recipientName ?? c.recipientEmail ?? c.buyerEmail ?? '—'}</td>
            <td data-label="State">{stateOf(c)}</td>
            <td data-label="Issued">{dateTime(c.createdDate)}</td>
            <td className="row-actions">
              <button type="button" className="button secondary small" onClick={() => { result.clear(); setOpen(c.id); }}>Open<span className="visually-hidden"> card {c.obfuscatedCode}</span></button>
            </td>
          </tr>
        )} />
      {cards.data && <Pager offset={offset} limit={GIFT_CARDS_LIMIT} total={cards.data.pagingMetadata.total} count={cards.data.giftCards.length} onOffset={setOffset} label="Gift cards" />}
      <Modal open={issuing} onOpenChange={setIssuing} title="Issue a gift card" description="A goodwill gesture or a prize: the card is mailed to the recipient if you give an e-mail.">
        {issuing && <IssueEditor onDone={(card) => { setIssuing(false); result.ok(`Gift card ${card.code ?? ''} issued for ${card.balance.formattedAmount}.`); }} />}
      </Modal>
      <Modal open={open !== null} onOpenChange={(o) => { if (!o) setOpen(null); }} title="Gift card" wide>
        {open && <CardDetail id={open} />}
      </Modal>
    </>
  );
}

function IssueEditor({ onDone }: { onDone: (card: GiftCard) => void }) {
  const act = useGiftCardAction();
  const { register, handleSubmit, formState: { errors } } = useForm<IssueForm>({
    resolver: zodResolver(issueSchema), defaultValues: { amount: '', recipientName: '', recipientEmail: '', message: '', note: '' },
  });
  const send = (v: IssueForm) => act.mutate({
    kind: 'issue',
    input: { amount: v.amount, ...(v.recipientName && { recipientName: v.recipientName }), ...(v.recipientEmail && { recipientEmail: v.recipientEmail }), ...(v.message && { message: v.message }), ...(v.note && { note: v.note }) },
  }, { onSuccess: onDone });
  return (
    <form className="form-grid" onSubmit={handleSubmit(send)} noValidate>
      <Field label="Amount" inputMode="decimal" {...register('amount')} error={errors.amount?.message} />
      <Field label="Recipient's name (optional)" {...register('recipientName')} error={errors.recipientName?.message} />
      <Field label="Recipient's e-mail (optional)" type="email" {...register('recipientEmail')} error={errors.recipientEmail?.message} />
      <Field label="Message (optional)" {...register('message')} error={errors.message?.message} />
      <Field label="Note for the ledger (optional)" {...register('note')} error={errors.note?.message} />
      {act.isError && <Notice kind="error">{plainError(act.error)}</Notice>}
      <div className="actions modal-actions">
        <button type="submit" className="button" disabled={act.isPending}>{act.isPending ? 'Issuing…' : 'Issue the card'}</button>
      </div>
    </form>
  );
}

function CardDetail({ id }: { id: string }) {
  const card = useGiftCard(id);
  const act = useGiftCardAction();
  const [done, setDone] = useState('');
  const { register, handleSubmit, reset, formState: { errors } } = useForm<AdjustForm>({ resolver: zodResolver(adjustSchema), defaultValues: { amount: '', reason: '' } });
  if (card.isPending) return <p>Loading…</p>;
  if (card.isError) return <Notice kind="error">{plainError(card.error)}</Notice>;
  const { giftCard: c, ledger } = card.data;
  const adjust = (v: AdjustForm) => act.mutate({ kind: 'adjust', id, amount: v.amount, reason: v.reason }, {
    onSuccess: (next) => { reset({ amount: '', reason: '' }); setDone(`The balance is now ${next.balance.formattedAmount}.`); },
  });
  const toggle = () => act.mutate({ kind: c.status === 'DISABLED' ? 'enable' : 'disable', id }, {
    onSuccess: (next) => setDone(next.status === 'DISABLED' ? 'The card is disabled: checkouts refuse it.' : 'The card can be used again.'),
  });
  return (
    <div className="gift-card-detail">
      <p><code>{c.code ?? c.obfuscatedCode}</code> · <strong>{c.balance.formattedAmount}</strong> of {c.initialValue.formattedAmount} · {stateOf(c)}</p>
      {done && <Notice kind="success">{done}</Notice>}
      {act.isError && <Notice kind="error">{plainError(act.error)}</Notice>}
      <table className="table">
        <caption>Ledger</caption>
        <thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col">Amount</th><th scope="col">Balance after</th><th scope="col">Why</th></tr></thead>
        <tbody>
          {ledger.map((e) => (
            <tr key={e.id}>
              <td>{dateTime(e.createdDate)}</td>
              <td>{e.type}</td>
              <td>{e.direction === 'DEBIT' ? '−' : '+'}{e.amount}</td>
              <td>{e.balanceAfter}</td>
              <td>{e.reason ?? (e.orderId ? `Order ${e.orderId.slice(0, 8)}` : '')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <form className="form-grid" onSubmit={handleSubmit(adjust)} noValidate>
        <h3>Adjust the balance</h3>
        <Field label="Amount to add (negative to take off)" inputMode="decimal" {...register('amount')} error={errors.amount?.message} />
        <Field label="Reason" {...register('reason')} error={errors.reason?.message} />
        <div className="actions">
          <button type="submit" className="button" disabled={act.isPending}>Adjust</button>
          <button type="button" className="button secondary" disabled={act.isPending} onClick={toggle}>{c.status === 'DISABLED' ? 'Enable the card' : 'Disable the card'}</button>
        </div>
      </form>
    </div>
  );
}
