import { useState } from 'react';
import { useForm, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { COUPON_CODE_PATTERN, COUPON_LIMITS, type Coupon } from '@bodega/sdk';
import { Field, SelectField } from '../../ui/Field.js';
import { Notice } from '../../ui/Notice.js';
import { ErrorState, Loading } from '../../ui/States.js';
import { plainError } from '../../shop/errors.js';
import { Confirm, Modal, PageHead, shortDate, Status, useMoney, useResult } from '../ui.js';
import { useCoupons, useCreateCoupon, useDeleteCoupon, useUpdateCoupon } from './queries.js';
import { SettingsNav } from './SettingsNav.js';

// Amounts stay decimal strings from the input to the request: no float ever holds money.
const MONEY = /^\d{1,9}(\.\d{1,2})?$/;
const schema = z.object({
  name: z.string().trim().min(1, 'Name the coupon').max(COUPON_LIMITS.name, `At most ${COUPON_LIMITS.name} characters`),
  code: z.string().trim().min(1, 'Give the code shoppers type').max(COUPON_LIMITS.code, `At most ${COUPON_LIMITS.code} characters`)
    .regex(new RegExp(COUPON_CODE_PATTERN), 'Letters, digits, - or _ only'),
  kind: z.enum(['percent', 'amount']),
  value: z.string().trim().regex(MONEY, 'A number such as 10 or 7.50'),
  minimumSubtotal: z.string().trim().refine((v) => v === '' || MONEY.test(v), 'A number such as 50 or 49.99, or leave it empty'),
  usageLimit: z.string().trim().refine((v) => v === '' || (/^[1-9]\d*$/.test(v) && Number(v) <= COUPON_LIMITS.usageLimit), `A whole number from 1 to ${COUPON_LIMITS.usageLimit.toLocaleString('en-US')}, or leave it empty`),
  active: z.boolean(),
}).refine((f) => f.kind !== 'percent' || (Number(f.value) > 0 && Number(f.value) <= COUPON_LIMITS.percent), { path: ['value'], message: `A percent from 0.01 to ${COUPON_LIMITS.percent}` })
  .refine((f) => f.kind !== 'amount' || Number(f.value) > 0, { path: ['value'], message: 'More than 0' });
type Form = z.infer<typeof schema>;

const EMPTY: Form = { name: '', code: '', kind: 'percent', value: '', minimumSubtotal: '', usageLimit: '', active: true };

function formOf(c: Coupon): Form {
  const s = c.specification;
  const percent = s.percentOffRate !== undefined;
  return {
    name: s.name, code: s.code, kind: percent ? 'percent' : 'amount',
    value: String(percent ? s.percentOffRate : s.moneyOffAmount ?? ''),
    minimumSubtotal: s.minimumSubtotal === undefined ? '' : String(s.minimumSubtotal),
    usageLimit: s.usageLimit === undefined ? '' : String(s.usageLimit),
    active: s.active !== false,
  };
}

export default function CouponsPage() {
  const money = useMoney();
  const result = useResult();
  const coupons = useCoupons();
  const [editing, setEditing] = useState<Coupon | null>(null);
  const [deleting, setDeleting] = useState<Coupon | null>(null);
  const { register, handleSubmit, reset, watch, formState: { errors } } = useForm<Form>({ resolver: zodResolver(schema), defaultValues: EMPTY });
  const create = useCreateCoupon();
  const remove = useDeleteCoupon();
  const createCoupon = (f: Form) => create.mutate({
    name: f.name, code: f.code.toUpperCase(), active: f.active,
    ...(f.kind === 'percent' ? { percentOffRate: f.value } : { moneyOffAmount: f.value }),
    ...(f.minimumSubtotal ? { minimumSubtotal: f.minimumSubtotal } : {}),
    ...(f.usageLimit ? { usageLimit: Number(f.usageLimit) } : {}),
  }, {
    onSuccess: (res) => { result.ok(`Coupon ${res.coupon.specification.code} created.`); reset(); },
    onError: (error) => result.fail(error),
  });
  return (
    <>
      <PageHead title="Coupons" />
      <SettingsNav />
      {result.view}
      {coupons.isPending && <Loading label="Loading coupons…" />}
      {coupons.isError && <ErrorState error={coupons.error} retry={() => void coupons.refetch()} />}
      {coupons.data && (
        <div className="table-wrap">
          <table className="table cards">
            <caption className="visually-hidden">Coupons</caption>
            <thead><tr><th scope="col">Code</th><th scope="col">Name</th><th scope="col">Discount</th><th scope="col">Used</th><th scope="col">Created</th><th scope="col">State</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {coupons.data.coupons.length === 0 && <tr><td colSpan={7} className="muted">No coupons yet.</td></tr>}
              {coupons.data.coupons.map((c) => (
                <tr key={c.id}>
                  <td className="card-title"><code>{c.specification.code}</code></td>
                  <td data-label="Name">{c.specification.name}</td>
                  <td data-label="Discount">{c.specification.percentOffRate !== undefined ? `${c.specification.percentOffRate} % off` : `${money(c.specification.moneyOffAmount)} off`}{c.specification.minimumSubtotal ? ` over ${money(c.specification.minimumSubtotal)}` : ''}</td>
                  <td data-label="Used">{c.numberOfUsages}{c.specification.usageLimit ? ` of ${c.specification.usageLimit}` : ''}</td>
                  <td data-label="Created">{shortDate(c.dateCreated)}</td>
                  <td data-label="State">{c.expired ? <span className="status status-soft" data-status="EXPIRED">Expired</span> : c.specification.active === false ? <span className="status status-soft" data-status="INACTIVE">Switched off</span> : <Status value="ACTIVE" />}</td>
                  <td className="row-actions">
                    <button type="button" className="button small secondary" onClick={() => { result.clear(); setEditing(c); }}>Edit<span className="visually-hidden"> {c.specification.code}</span></button>
                    <button type="button" className="button small secondary danger-outline" onClick={() => { result.clear(); remove.reset(); setDeleting(c); }}>Delete<span className="visually-hidden"> {c.specification.code}</span></button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form className="panel settings-form" noValidate onSubmit={(e) => { result.clear(); void handleSubmit(createCoupon)(e); }}>
        <h2>New coupon</h2>
        <CouponFields register={register} errors={errors} kind={watch('kind')} />
        <div className="actions"><button type="submit" className="button" disabled={create.isPending}>{create.isPending ? 'Creating…' : 'Create coupon'}</button></div>
      </form>
      <Modal open={editing !== null} onOpenChange={(o) => { if (!o) setEditing(null); }} title={`Edit coupon ${editing?.specification.code ?? ''}`}>
        {editing && <EditCoupon coupon={editing} onDone={(text) => { setEditing(null); result.ok(text); }} />}
      </Modal>
      <Confirm open={deleting !== null} onOpenChange={(o) => { if (!o) setDeleting(null); }} title={`Delete coupon ${deleting?.specification.code ?? ''}?`} confirmLabel="Delete coupon"
        busy={remove.isPending} error={remove.error} onConfirm={() => deleting && remove.mutate(deleting, { onSuccess: (_, c) => { setDeleting(null); result.ok(`Coupon ${c.specification.code} deleted.`); } })}>
        <p>Shoppers can no longer use this code. Orders that used it keep their discount.</p>
      </Confirm>
    </>
  );
}

function CouponFields({ register, errors, kind, kindFixed }: { register: UseFormRegister<Form>; errors: FieldErrors<Form>; kind?: Form['kind']; kindFixed?: Form['kind'] }) {
  return (
    <>
      <div className="two">
        <Field label="Name" {...register('name')} error={errors.name?.message} />
        <Field label="Code" autoCapitalize="characters" {...register('code')} error={errors.code?.message} />
      </div>
      <div className="two">
        {kindFixed
          ? <Field label={kindFixed === 'percent' ? 'Percent off' : 'Amount off'} inputMode="decimal" {...register('value')} error={errors.value?.message} hint="A coupon keeps its kind; create a new one for the other kind." />
          : (
            <>
              <SelectField label="Kind" {...register('kind')}><option value="percent">Percent off</option><option value="amount">Amount off</option></SelectField>
              <Field label={kind === 'amount' ? 'Amount off' : 'Percent off'} inputMode="decimal" {...register('value')} error={errors.value?.message}
                hint={kind === 'amount' ? 'In the store currency, such as 5 or 4.95' : 'From 0.01 to 100, such as 10'} />
            </>
          )}
      </div>
      <div className="two">
        <Field label="Minimum order (optional)" inputMode="decimal" {...register('minimumSubtotal')} error={errors.minimumSubtotal?.message} />
        <Field label="Usage limit (optional)" inputMode="numeric" {...register('usageLimit')} error={errors.usageLimit?.message} />
      </div>
      <label className="check"><input type="checkbox" {...register('active')} /> Shoppers can use it</label>
    </>
  );
}

function EditCoupon({ coupon, onDone }: { coupon: Coupon; onDone: (text: string) => void }) {
  const initial = formOf(coupon);
  const { register, handleSubmit, formState: { errors } } = useForm<Form>({ resolver: zodResolver(schema), defaultValues: initial });
  const save = useUpdateCoupon();
  const saveCoupon = (f: Form) => save.mutate({
    id: coupon.id,
    specification: {
      name: f.name, code: f.code.toUpperCase(), active: f.active,
      ...(initial.kind === 'percent' ? { percentOffRate: f.value } : { moneyOffAmount: f.value }),
      minimumSubtotal: f.minimumSubtotal || null,
      usageLimit: f.usageLimit ? Number(f.usageLimit) : null,
    },
  }, { onSuccess: () => onDone(`Coupon ${f.code.toUpperCase()} saved.`) });
  return (
    <form className="coupon-edit" noValidate onSubmit={(e) => void handleSubmit(saveCoupon)(e)}>
      {save.isError && <Notice kind="error">{plainError(save.error)}</Notice>}
      <CouponFields register={register} errors={errors} kindFixed={initial.kind} />
      <div className="actions modal-actions"><button type="submit" className="button" disabled={save.isPending}>{save.isPending ? 'Saving…' : 'Save coupon'}</button></div>
    </form>
  );
}
