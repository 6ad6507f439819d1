// "New order": an order the merchant builds for a customer (a phone order, a wholesale order).
// First the customer — a member found by name or e-mail, or anyone by e-mail — which starts a
// draft order; then its items, discount and shipping with the totals the server calculates; then
// "Create order", after which the order is marked paid or a payment link is sent.
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from '../../router/Router.js';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { plainError } from '../../shop/errors.js';
import { Field } from '../../ui/Field.js';
import { Notice } from '../../ui/Notice.js';
import { ErrorState, Loading } from '../../ui/States.js';
import { PageHead } from '../ui.js';
import { DraftEditor, DraftTotals, draftProblems } from './DraftEditor.js';
import { useCommitDraft, useCreateDraft, useDraftChange, useDraftOrder, useMemberPicker } from './queries.js';

export default function NewOrderPage() {
  const [params, setParams] = useSearchParams();
  const draftId = params.get('draft') ?? '';
  return (
    <>
      <p className="small"><Link to="/admin/orders">← Orders</Link></p>
      <PageHead title="New order" lead="A phone or wholesale order: priced like a checkout, then paid offline or through a payment link." />
      {draftId ? <Draft draftId={draftId} /> : <Customer onStarted={(id) => setParams(new URLSearchParams({ draft: id }), { replace: true })} />}
    </>
  );
}

const customerSchema = z.object({
  kind: z.enum(['member', 'email']),
  memberId: z.string(),
  email: z.string().trim(),
}).superRefine((f, ctx) => {
  if (f.kind === 'member' && !f.memberId) ctx.addIssue({ code: 'custom', path: ['memberId'], message: 'Choose a member' });
  if (f.kind === 'email' && !z.string().email().safeParse(f.email).success) ctx.addIssue({ code: 'custom', path: ['email'], message: 'Enter an e-mail address like name@example.com' });
});
type CustomerForm = z.infer<typeof customerSchema>;

function Customer({ onStarted }: { onStarted: (draftId: string) => void }) {
  const [search, setSearch] = useState('');
  const members = useMemberPicker(search);
  const create = useCreateDraft();
  const { register, handleSubmit, watch, formState: { errors } } = useForm<CustomerForm>({ resolver: zodResolver(customerSchema), defaultValues: { kind: 'email', memberId: '', email: '' } });
  const kind = watch('kind');
  const submit = handleSubmit((f) => create.mutate(
    { buyerInfo: f.kind === 'member' ? { memberId: f.memberId } : { email: f.email } },
    { onSuccess: onStarted },
  ));
  return (
    <section className="panel" aria-labelledby="customer-heading">
      <h2 id="customer-heading">Customer</h2>
      <form className="form-grid" noValidate onSubmit={(e) => void submit(e)}>
        <fieldset className="segmented">
          <legend className="visually-hidden">Who the order is for</legend>
          <label><input type="radio" value="email" {...register('kind')} /> <span>Customer by e-mail</span></label>
          <label><input type="radio" value="member" {...register('kind')} /> <span>Existing member</span></label>
        </fieldset>
        {kind === 'email' ? (
          <Field label="Customer e-mail" type="email" autoComplete="off" {...register('email')} error={errors.email?.message} hint="The order confirmation and the payment link go here." />
        ) : (
          <>
            <Field label="Find a member" type="search" value={search} onChange={(e) => setSearch(e.target.value)} hint="Name or e-mail, two letters or more." />
            <fieldset className="options">
              <legend>Member</legend>
              {(members.data ?? []).map((m) => (
                <label key={m._id} className="check"><input type="radio" value={m._id} {...register('memberId')} /> {m.profile?.nickname ?? m.loginEmail} <span className="muted small">{m.loginEmail}</span></label>
              ))}
              {search.trim().length > 1 && members.data?.length === 0 && <p className="muted small">No member matches.</p>}
            </fieldset>
            {errors.memberId && <p className="error">{errors.memberId.message}</p>}
          </>
        )}
        {create.isError && <Notice kind="error">{plainError(create.error)}</Notice>}
        <div className="actions"><button type="submit" className="button" disabled={create.isPending}>{create.isPending ? 'Starting…' : 'Start the order'}</button></div>
      </form>
    </section>
  );
}

function Draft({ draftId }: { draftId: string }) {
  const draft = useDraftOrder(draftId);
  const change = useDraftChange(draftId);
  const commit = useCommitDraft(draftId);
  const navigate = useNavigate();
  if (draft.isPending) return <Loading label="Loading the draft order…" />;
  if (draft.isError) return <ErrorState error={draft.error} retry={() => void draft.refetch()} />;
  const calculated = draft.data;
  const d = calculated.draftOrder;
  if (d?.status === 'COMMITTED' && d.orderId) {
    return <Notice kind="info">This draft already became an order. <Link to={`/admin/orders/${d.orderId}`}>Open the order</Link></Notice>;
  }
  const problems = draftProblems(calculated);
  const empty = (d?.lineItems ?? []).length === 0;
  return (
    <div className="detail-columns wide-main">
      <DraftEditor draftId={draftId} calculated={calculated} change={change} />
      <div className="stack">
        <section className="panel" aria-labelledby="draft-buyer-heading">
          <h2 id="draft-buyer-heading">Customer</h2>
          <p>{d?.buyerInfo?.email ?? '—'}<span className="block muted small">{d?.buyerInfo?.memberId ? 'Member' : 'Customer by e-mail'}</span></p>
        </section>
        <section className="panel" aria-labelledby="draft-totals-heading">
          <h2 id="draft-totals-heading">Totals</h2>
          <DraftTotals calculated={calculated} />
          {problems.length > 0 && <Notice kind="error">{problems.join(' ')}</Notice>}
          {commit.isError && <Notice kind="error">{plainError(commit.error)}</Notice>}
          <button type="button" className="button large block" disabled={empty || change.isPending || commit.isPending}
            onClick={() => commit.mutate(undefined, { onSuccess: (orderId) => navigate(`/admin/orders/${orderId}?created=1`) })}>
            {commit.isPending ? 'Creating the order…' : 'Create order'}
          </button>
          <p className="muted small">Stock is taken when the order is created. Then mark it paid, or send the customer a payment link.</p>
        </section>
      </div>
    </div>
  );
}
