// The draft order editor of "New order" and "Edit order": the lines (quantities, remove), a product
// with its variant, a custom line, a discount, the shipping address and option, and the totals as
// the server calculates them (the same pricing as checkout). Every change is a draft call; the
// page shows the draft the server answers.
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { STORES_CATALOG_APP_ID, type CalculatedDraftOrder, type Product } from '@bodega/sdk';
import { COUNTRIES } from '../../shop/countries.js';
import { plainError } from '../../shop/errors.js';
import { Field, SelectField } from '../../ui/Field.js';
import { fromMinor, isPositiveAmount, toMinor } from '../../ui/money.js';
import { Notice } from '../../ui/Notice.js';
import { Quantity } from '../../ui/Quantity.js';
import { useAdmin } from '../context.js';
import { useMoney } from '../ui.js';
import { useDraftChange, useProductPicker, type DraftChange } from './queries.js';

type Change = ReturnType<typeof useDraftChange>;

/** What stops the draft from becoming an order, in the server's words. */
export function draftProblems(calculated: CalculatedDraftOrder | undefined): string[] {
  const errors = calculated?.calculationErrors as { violations?: { description?: string; severity?: string }[] } | undefined;
  return (errors?.violations ?? []).filter((v) => v.severity !== 'WARNING').map((v) => v.description ?? '').filter(Boolean);
}

export function DraftEditor({ draftId, calculated, change }: { draftId: string; calculated: CalculatedDraftOrder; change: Change }) {
  const [error, setError] = useState<unknown>();
  const apply = (c: DraftChange, done?: () => void) => {
    setError(undefined);
    change.mutate(c, { onSuccess: () => done?.(), onError: setError });
  };
  return (
    <div className="stack">
      {error !== undefined && <Notice kind="error">{plainError(error)}</Notice>}
      <LinesPanel calculated={calculated} busy={change.isPending} apply={apply} />
      <div className="draft-pair">
        <AddProduct key={`p-${draftId}`} busy={change.isPending} apply={apply} />
        <AddCustomLine busy={change.isPending} apply={apply} />
      </div>
      <div className="draft-pair">
        <Discounts calculated={calculated} busy={change.isPending} apply={apply} />
        <Shipping calculated={calculated} busy={change.isPending} apply={apply} />
      </div>
    </div>
  );
}

type Apply = (change: DraftChange, done?: () => void) => void;

function LinesPanel({ calculated, busy, apply }: { calculated: CalculatedDraftOrder; busy: boolean; apply: Apply }) {
  const money = useMoney();
  const lines = calculated.draftOrder?.lineItems ?? [];
  const setQuantity = (lineItemId: string, newQuantity: number) => apply({ kind: 'quantities', lineItemChanges: [{ lineItemId, newQuantity }] });
  return (
    <section className="panel" aria-labelledby="draft-lines-heading">
      <h2 id="draft-lines-heading">Items</h2>
      {lines.length === 0 ? <p className="muted">No items yet: add a product or a custom line below.</p> : (
        <div className="table-wrap">
          <table className="table cards">
            <thead><tr><th scope="col">Item</th><th scope="col">Qty</th><th scope="col" className="num">Total</th><th scope="col"><span className="visually-hidden">Remove</span></th></tr></thead>
            <tbody>
              {lines.map(({ lineItem: l }, i) => {
                const name = l?.productName?.original ?? '';
                return (
                  <tr key={l?._id ?? i}>
                    <td className="card-title"><span>{name}</span>{(l?.descriptionLines ?? []).map((d, j) => {
                      const value = d.colorInfo?.original ?? d.plainText?.original;
                      return value ? <span key={j} className="block muted small">{d.name?.original}: {value}</span> : null;
                    })}<span className="block muted small">{money(l?.price?.amount)} each</span></td>
                    <td data-label="Qty"><Quantity value={l?.quantity ?? 1} label={`Quantity of ${name}`} disabled={busy} max={999} onChange={(n) => setQuantity(l?._id ?? '', n)} /></td>
                    <td className="num" data-label="Total">{money(l?.totalPriceBeforeTax?.amount)}</td>
                    <td><button type="button" className="button secondary small" disabled={busy} onClick={() => setQuantity(l?._id ?? '', 0)} aria-label={`Remove ${name}`}>Remove</button></td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** The totals the server calculated; with `before`, the order's total before the edit and the difference. */
export function DraftTotals({ calculated, before }: { calculated: CalculatedDraftOrder; before?: string }) {
  const { currency } = useAdmin();
  const money = useMoney();
  const s = calculated.draftOrder?.priceSummary;
  const shipping = calculated.draftOrder?.shippingInfo?.shippingInfo;
  const difference = before !== undefined ? (toMinor(s?.total?.amount ?? '0', currency) ?? 0n) - (toMinor(before, currency) ?? 0n) : undefined;
  return (
    <dl className="totals" aria-live="polite">
      <div><dt>Subtotal</dt><dd>{money(s?.subtotal?.amount)}</dd></div>
      {isPositiveAmount(s?.discount?.amount) && <div className="discount"><dt>Discount</dt><dd>−{money(s?.discount?.amount)}</dd></div>}
      <div><dt>Shipping{shipping?.title ? ` (${shipping.title})` : ''}</dt><dd>{money(s?.shipping?.amount)}</dd></div>
      <div><dt>Tax</dt><dd>{money(s?.tax?.amount)}</dd></div>
      {before !== undefined && <div><dt>Total before the edit</dt><dd>{money(before)}</dd></div>}
      <div className="grand"><dt>{before !== undefined ? 'New total' : 'Total'}</dt><dd data-testid="draft-total">{money(s?.total?.amount)}</dd></div>
      {difference !== undefined && (
        <div><dt>Difference</dt><dd data-testid="draft-difference">{difference < 0n ? `−${money(fromMinor(-difference, currency))}` : `+${money(fromMinor(difference, currency))}`}</dd></div>
      )}
    </dl>
  );
}

const productSchema = z.object({
  productId: z.string().min(1, 'Choose a product'),
  variantId: z.string(),
  quantity: z.coerce.number().int('A whole number').min(1, 'At least 1').max(999, 'At most 999'),
});
type ProductForm = z.input<typeof productSchema>;

interface Variant { id: string; label: string }
function variantsOf(product: Product | undefined): Variant[] {
  const variants = (product?.variants ?? []) as { _id?: string; choices?: Record<string, string> }[];
  if (variants.length <= 1) return [];
  return variants.map((v) => ({ id: v._id ?? '', label: Object.entries(v.choices ?? {}).map(([k, val]) => `${k}: ${val}`).join(', ') }));
}

function AddProduct({ busy, apply }: { busy: boolean; apply: Apply }) {
  const [text, setText] = useState('');
  const products = useProductPicker(text);
  const { register, handleSubmit, watch, reset, setError, formState: { errors } } = useForm<ProductForm, unknown, z.output<typeof productSchema>>({
    resolver: zodResolver(productSchema), defaultValues: { productId: '', variantId: '', quantity: 1 },
  });
  const chosen = (products.data ?? []).find((p) => p._id === watch('productId'));
  const variants = variantsOf(chosen);
  const submit = handleSubmit((f) => {
    if (variants.length && !f.variantId) {
      setError('variantId', { message: 'Choose a variant' });
      return;
    }
    const options = f.variantId ? { variantId: f.variantId } : undefined;
    apply({ kind: 'add', catalogLineItems: [{ catalogReference: { appId: STORES_CATALOG_APP_ID, catalogItemId: f.productId, ...(options && { options }) }, quantity: f.quantity }] },
      () => reset({ productId: '', variantId: '', quantity: 1 }));
  });
  return (
    <section className="panel" aria-labelledby="add-product-heading">
      <h2 id="add-product-heading">Add a product</h2>
      <form className="form-grid" noValidate onSubmit={(e) => void submit(e)}>
        <Field label="Find a product" type="search" value={text} onChange={(e) => setText(e.target.value)} hint="Type part of its name." />
        <SelectField label="Product" {...register('productId')} error={errors.productId?.message}>
          <option value="">Choose…</option>
          {(products.data ?? []).map((p) => <option key={p._id} value={p._id}>{p.name}</option>)}
        </SelectField>
        {variants.length > 0 && (
          <SelectField label="Variant" {...register('variantId')} error={errors.variantId?.message}>
            <option value="">Choose…</option>
            {variants.map((v) => <option key={v.id} value={v.id}>{v.label}</option>)}
          </SelectField>
        )}
        <Field label="Quantity" type="number" min={1} max={999} inputMode="numeric" {...register('quantity')} error={errors.quantity?.message} />
        <div className="actions"><button type="submit" className="button" disabled={busy}>Add product</button></div>
      </form>
    </section>
  );
}

function AddCustomLine({ busy, apply }: { busy: boolean; apply: Apply }) {
  const { currency } = useAdmin();
  const schema = useMemo(() => z.object({
    name: z.string().trim().min(1, 'Give the item a name').max(200, 'At most 200 characters'),
    price: z.string().trim().refine((v) => (toMinor(v, currency) ?? -1n) >= 0n, `Enter a price like ${fromMinor(1250n, currency)}`),
    quantity: z.coerce.number().int('A whole number').min(1, 'At least 1').max(999, 'At most 999'),
  }), [currency]);
  const { register, handleSubmit, reset, formState: { errors } } = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema), defaultValues: { name: '', price: '', quantity: 1 },
  });
  const submit = handleSubmit((f) => apply({
    kind: 'add', customLineItems: [{ productName: { original: f.name }, price: { amount: f.price }, quantity: f.quantity, itemType: { preset: 'SERVICE' } }],
  }, () => reset({ name: '', price: '', quantity: 1 })));
  return (
    <section className="panel" aria-labelledby="add-custom-heading">
      <h2 id="add-custom-heading">Add a custom line</h2>
      <form className="form-grid" noValidate onSubmit={(e) => void submit(e)}>
        <Field label="Item name" placeholder="e.g. Engraving" {...register('name')} error={errors.name?.message} />
        <Field label="Unit price" inputMode="decimal" {...register('price')} error={errors.price?.message} />
        <Field label="Custom quantity" type="number" min={1} max={999} inputMode="numeric" {...register('quantity')} error={errors.quantity?.message} />
        <div className="actions"><button type="submit" className="button" disabled={busy}>Add custom line</button></div>
      </form>
    </section>
  );
}

function Discounts({ calculated, busy, apply }: { calculated: CalculatedDraftOrder; busy: boolean; apply: Apply }) {
  const { currency } = useAdmin();
  const money = useMoney();
  const schema = useMemo(() => z.object({
    kind: z.enum(['PERCENT', 'AMOUNT']),
    value: z.string().trim(),
  }).superRefine((f, ctx) => {
    const ok = f.kind === 'PERCENT' ? /^\d{1,3}(\.\d{1,2})?$/.test(f.value) && Number(f.value) > 0 && Number(f.value) <= 100 : (toMinor(f.value, currency) ?? 0n) > 0n;
    if (!ok) ctx.addIssue({ code: 'custom', path: ['value'], message: f.kind === 'PERCENT' ? 'A percentage more than 0 and at most 100' : `An amount like ${fromMinor(500n, currency)}` });
  }), [currency]);
  const { register, handleSubmit, reset, formState: { errors } } = useForm<z.infer<typeof schema>>({ resolver: zodResolver(schema), defaultValues: { kind: 'PERCENT', value: '' } });
  const discounts = calculated.draftOrder?.discounts ?? [];
  const submit = handleSubmit((f) => apply({ kind: 'discount', discount: f.kind === 'PERCENT' ? { percentage: f.value } : { amount: { amount: f.value } } }, () => reset({ kind: f.kind, value: '' })));
  return (
    <section className="panel" aria-labelledby="discount-heading">
      <h2 id="discount-heading">Discount</h2>
      {discounts.length > 0 && (
        <ul className="plain-list" role="list">
          {discounts.map(({ discount: d }, i) => (
            <li key={d?._id ?? i}>
              {d?.merchantDiscount?.percentage ? `${d.merchantDiscount.percentage}% off` : 'Amount off'}: −{money(d?.merchantDiscount?.amount?.amount)}{' '}
              <button type="button" className="button secondary small" disabled={busy} onClick={() => apply({ kind: 'remove-discount', discountId: d?._id ?? '' })}>Remove discount</button>
            </li>
          ))}
        </ul>
      )}
      <form className="form-grid" noValidate onSubmit={(e) => void submit(e)}>
        <SelectField label="Discount type" {...register('kind')}>
          <option value="PERCENT">Percentage of the order</option>
          <option value="AMOUNT">Amount off the order</option>
        </SelectField>
        <Field label="Discount value" inputMode="decimal" {...register('value')} error={errors.value?.message} />
        <div className="actions"><button type="submit" className="button secondary" disabled={busy}>Apply discount</button></div>
      </form>
    </section>
  );
}

const addressSchema = z.object({
  firstName: z.string().trim().min(1, 'Enter the first name').max(100, 'At most 100 characters'),
  lastName: z.string().trim().min(1, 'Enter the last name').max(100, 'At most 100 characters'),
  addressLine: z.string().trim().min(1, 'Enter the street and number').max(200, 'At most 200 characters'),
  city: z.string().trim().min(1, 'Enter the city').max(100, 'At most 100 characters'),
  postalCode: z.string().trim().min(1, 'Enter the postal code').max(20, 'At most 20 characters'),
  country: z.string().length(2),
  region: z.string().trim().regex(/^[A-Za-z0-9]{0,3}$/, 'A region code like NY, or leave it empty'),
});
type AddressForm = z.infer<typeof addressSchema>;

function Shipping({ calculated, busy, apply }: { calculated: CalculatedDraftOrder; busy: boolean; apply: Apply }) {
  const money = useMoney();
  const info = calculated.draftOrder?.shippingInfo?.shippingInfo;
  const destination = info?.logistics?.shippingDestination as { address?: Record<string, string>; contactDetails?: Record<string, string> } | undefined;
  const { register, handleSubmit, formState: { errors } } = useForm<AddressForm>({
    resolver: zodResolver(addressSchema),
    defaultValues: {
      firstName: destination?.contactDetails?.firstName ?? '', lastName: destination?.contactDetails?.lastName ?? '',
      addressLine: destination?.address?.addressLine ?? '', city: destination?.address?.city ?? '', postalCode: destination?.address?.postalCode ?? '',
      country: destination?.address?.country ?? 'US', region: destination?.address?.subdivision?.split('-')[1] ?? '',
    },
  });
  const submit = handleSubmit((f) => apply({
    kind: 'shipping',
    shippingInfo: {
      logistics: {
        shippingDestination: {
          address: { addressLine: f.addressLine, city: f.city, postalCode: f.postalCode, country: f.country, ...(f.region && { subdivision: `${f.country}-${f.region.toUpperCase()}` }) },
          contactDetails: { firstName: f.firstName, lastName: f.lastName },
        },
      },
    },
  }));
  const options = calculated.shippingOptions ?? [];
  return (
    <section className="panel" aria-labelledby="shipping-heading">
      <h2 id="shipping-heading">Shipping</h2>
      <form className="form-grid" noValidate onSubmit={(e) => void submit(e)}>
        <div className="two">
          <Field label="First name" autoComplete="off" {...register('firstName')} error={errors.firstName?.message} />
          <Field label="Last name" autoComplete="off" {...register('lastName')} error={errors.lastName?.message} />
        </div>
        <Field label="Street and number" autoComplete="off" {...register('addressLine')} error={errors.addressLine?.message} />
        <div className="two">
          <Field label="City" autoComplete="off" {...register('city')} error={errors.city?.message} />
          <Field label="Postal code" autoComplete="off" {...register('postalCode')} error={errors.postalCode?.message} />
        </div>
        <div className="two">
          <SelectField label="Country" {...register('country')}>
            {COUNTRIES.map(([code, name]) => <option key={code} value={code}>{name}</option>)}
          </SelectField>
          <Field label="Region (optional)" placeholder="e.g. NY" {...register('region')} error={errors.region?.message} />
        </div>
        <div className="actions"><button type="submit" className="button secondary" disabled={busy}>Save address</button></div>
      </form>
      {options.length > 0 && (
        <fieldset className="options">
          <legend>Shipping option</legend>
          {options.map((o) => (
            <label key={o.code} className="check">
              <input type="radio" name="draft-shipping" checked={info?.code === o.code} disabled={busy}
                onChange={() => apply({ kind: 'shipping', shippingInfo: { code: o.code ?? null } })} /> {o.title} · {money(o.cost?.price?.amount)}
            </label>
          ))}
        </fieldset>
      )}
      {destination && options.length === 0 && <p className="muted small">No shipping option reaches this address.</p>}
    </section>
  );
}
