// The owner's invoice settings: the number's prefix, invoices made when an order is paid, the
// seller's details printed on every invoice, and the payment terms that give an invoice its due date.
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import type { InvoiceSettings } from '@bodega/sdk';
import { Field } from '../../ui/Field.js';
import { ErrorState, Loading } from '../../ui/States.js';
import { useResult } from '../ui.js';
import { useInvoiceSettings, useSaveInvoiceSettings } from './queries.js';

const schema = z.object({
  prefix: z.string().trim().max(20, 'At most 20 characters').regex(/^[A-Za-z0-9._#-]*$/, 'Letters, digits and . _ # - only'),
  autoOnPaid: z.boolean(),
  businessName: z.string().trim().max(200, 'At most 200 characters'),
  businessAddress: z.string().trim().max(600, 'At most 600 characters'),
  taxId: z.string().trim().max(50, 'At most 50 characters'),
  paymentTermsDays: z.string().trim().regex(/^(\d{1,3})?$/, 'A whole number of days, or empty').refine((v) => v === '' || Number(v) <= 365, 'At most 365 days'),
});
type Form = z.infer<typeof schema>;

const toForm = (s: InvoiceSettings): Form => ({ prefix: s.prefix, autoOnPaid: s.autoOnPaid, businessName: s.businessName ?? '', businessAddress: s.businessAddress ?? '', taxId: s.taxId ?? '',
  paymentTermsDays: s.paymentTermsDays === null ? '' : String(s.paymentTermsDays),
});

function SettingsForm({ settings }: { settings: InvoiceSettings }) {
  const save = useSaveInvoiceSettings();
  const result = useResult();
  const { register, handleSubmit, formState: { errors } } = useForm<Form>({ resolver: zodResolver(schema), values: toForm(settings) });
  const submit = (f: Form) => {
    result.clear();
    save.mutate(
      { prefix: f.prefix, autoOnPaid: f.autoOnPaid, businessName: f.businessName || null, businessAddress: f.businessAddress || null, taxId: f.taxId || null,
        paymentTermsDays: f.paymentTermsDays === '' ? null : Number(f.paymentTermsDays) },
      { onSuccess: () => result.ok('The invoice settings are saved. New invoices use them.'), onError: (error) => result.fail(error) },
    );
  };
  return (
    <form className="stack" noValidate onSubmit={(e) => void handleSubmit(submit)(e)}>
      {result.view}
      <Field label="Number prefix" hint="Printed before the number: INV- gives INV-1, INV-2…" {...register('prefix')} error={errors.prefix?.message} />
      <label className="check"><input type="checkbox" {...register('autoOnPaid')} /> Issue the invoice by itself when an order is paid</label>
      <Field label="Business name" hint="Leave empty to print the store's name." {...register('businessName')} error={errors.businessName?.message} />
      <div className="field">
        <label htmlFor="invoice-address">Business address</label>
        <textarea id="invoice-address" rows={3} {...register('businessAddress')} aria-invalid={errors.businessAddress ? true : undefined} aria-describedby={errors.businessAddress ? 'invoice-address-error' : undefined} />
        {errors.businessAddress && <p id="invoice-address-error" className="error">{errors.businessAddress.message}</p>}
      </div>
      <Field label="VAT number" {...register('taxId')} error={errors.taxId?.message} />
      <Field label="Payment terms (days)" inputMode="numeric" hint="New invoices are due this many days after they are issued (30: net 30) and show as overdue after that. Leave empty for no due date."
        {...register('paymentTermsDays')} error={errors.paymentTermsDays?.message} />
      <div className="actions"><button type="submit" className="button" disabled={save.isPending}>{save.isPending ? 'Saving…' : 'Save settings'}</button></div>
    </form>
  );
}

export function InvoiceSettingsPanel() {
  const settings = useInvoiceSettings(true);
  return (
    <section className="panel" aria-labelledby="invoice-settings-heading">
      <h2 id="invoice-settings-heading">Invoice settings</h2>
      {settings.isPending && <Loading label="Loading the settings…" />}
      {settings.isError && <ErrorState error={settings.error} retry={() => void settings.refetch()} />}
      {settings.data && <SettingsForm settings={settings.data} />}
    </section>
  );
}
