import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Field, SelectField } from '../../ui/Field.js';
import { ErrorState, Loading } from '../../ui/States.js';
import { useAdmin } from '../context.js';
import { PageHead, shortDate, Status, useMoney, useResult } from '../ui.js';
import { SettingsNav } from './SettingsNav.js';

const schema = z.object({
  name: z.string().trim().min(1, 'Name the coupon').max(100),
  code: z.string().trim().regex(/^[A-Za-z0-9_-]{3,20}$/, '3–20 letters, digits, - or _'),
  kind: z.enum(['percent', 'amount']),
  value: z.string().trim().regex(/^\d+(\.\d{1,2})?$/, 'A number'),
  minimumSubtotal: z.string().trim().refine((v) => v === '' || /^\d+(\.\d{1,2})?$/.test(v), 'A number'),
  usageLimit: z.string().trim().refine((v) => v === '' || /^\d+$/.test(v), 'A whole number'),
});
type Form = z.infer<typeof schema>;

export default function CouponsPage() {
  const { api } = useAdmin();
  const money = useMoney();
  const queryClient = useQueryClient();
  const result = useResult();
  const coupons = useQuery({ queryKey: ['admin', 'coupons'], queryFn: () => api.settings.queryCoupons({ limit: 100 }) });
  const { register, handleSubmit, reset, formState: { errors } } = useForm<Form>({ resolver: zodResolver(schema), defaultValues: { name: '', code: '', kind: 'percent', value: '', minimumSubtotal: '', usageLimit: '' } });
  const create = useMutation({
    mutationFn: (f: Form) => api.settings.createCoupon({
      name: f.name, code: f.code.toUpperCase(),
      ...(f.kind === 'percent' ? { percentOffRate: Number(f.value) } : { moneyOffAmount: Number(f.value) }),
      ...(f.minimumSubtotal ? { minimumSubtotal: Number(f.minimumSubtotal) } : {}),
      ...(f.usageLimit ? { usageLimit: Number(f.usageLimit) } : {}),
    }),
    onSuccess: async (res) => { result.ok(`Coupon ${res.coupon.specification.code} created.`); reset(); await queryClient.invalidateQueries({ queryKey: ['admin', 'coupons'] }); },
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
            <thead><tr><th scope="col">Code</th><th scope="col">Name</th><th scope="col">Discount</th><th scope="col">Used</th><th scope="col">Created</th><th scope="col">State</th></tr></thead>
            <tbody>
              {coupons.data.coupons.length === 0 && <tr><td colSpan={6} className="muted">No coupons yet.</td></tr>}
              {coupons.data.coupons.map((c) => (
                <tr key={c.id}>
                  <td className="card-title"><code>{c.specification.code}</code></td>
                  <td data-label="Name">{c.specification.name}</td>
                  <td data-label="Discount">{c.specification.percentOffRate !== undefined ? `${c.specification.percentOffRate} % off` : `${money(c.specification.moneyOffAmount)} off`}{c.specification.minimumSubtotal ? ` over ${money(c.specification.minimumSubtotal)}` : ''}</td>
                  <td data-label="Used">{c.numberOfUsages}{c.specification.usageLimit ? ` of ${c.specification.usageLimit}` : ''}</td>
                  <td data-label="Created">{shortDate(c.dateCreated)}</td>
                  <td data-label="State">{c.expired ? <Status value="EXPIRED" /> : c.specification.active === false ? <Status value="INACTIVE" /> : <Status value="ACTIVE" />}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form className="panel settings-form" noValidate onSubmit={(e) => { result.clear(); void handleSubmit((f) => create.mutate(f))(e); }}>
        <h2>New coupon</h2>
        <div className="two">
          <Field label="Name" {...register('name')} error={errors.name?.message} />
          <Field label="Code" {...register('code')} error={errors.code?.message} />
        </div>
        <div className="two">
          <SelectField label="Kind" {...register('kind')}><option value="percent">Percent off</option><option value="amount">Amount off</option></SelectField>
          <Field label="Value" inputMode="decimal" {...register('value')} error={errors.value?.message} />
        </div>
        <div className="two">
          <Field label="Minimum order (optional)" inputMode="decimal" {...register('minimumSubtotal')} error={errors.minimumSubtotal?.message} />
          <Field label="Usage limit (optional)" inputMode="numeric" {...register('usageLimit')} error={errors.usageLimit?.message} />
        </div>
        <div className="actions"><button type="submit" className="button" disabled={create.isPending}>{create.isPending ? 'Creating…' : 'Create coupon'}</button></div>
      </form>
    </>
  );
}
