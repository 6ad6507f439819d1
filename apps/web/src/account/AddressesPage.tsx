import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import type { MemberAddressInput } from '@bodega/sdk';
import { COUNTRIES, countryName } from '../shop/countries.js';
import { plainError } from '../shop/errors.js';
import { useCurrentMember } from '../shop/member.js';
import { Field, SelectField } from '../ui/Field.js';
import { Notice } from '../ui/Notice.js';
import { usePageTitle } from '../ui/usePageTitle.js';
import { useSaveAddresses } from './queries.js';

const schema = z.object({
  addressLine: z.string().trim().min(1, 'Enter the street and number'),
  city: z.string().trim().min(1, 'Enter the city'),
  postalCode: z.string().trim().min(1, 'Enter the postal code'),
  country: z.string().min(2),
  tag: z.enum(['HOME', 'WORK', 'BILLING', 'SHIPPING', 'UNTAGGED']),
});
type Form = z.infer<typeof schema>;
const TAGS: Record<Form['tag'], string> = { HOME: 'Home', WORK: 'Work', SHIPPING: 'Shipping', BILLING: 'Billing', UNTAGGED: 'Other' };

export default function AddressesPage() {
  usePageTitle('Your addresses');
  const member = useCurrentMember();
  const save = useSaveAddresses();
  const [adding, setAdding] = useState(false);
  const { register, handleSubmit, reset, formState: { errors } } = useForm<Form>({
    resolver: zodResolver(schema),
    defaultValues: { addressLine: '', city: '', postalCode: '', country: 'US', tag: 'HOME' },
  });
  if (!member.data) return null;
  const id = member.data._id ?? '';
  const addresses = member.data.contact?.addresses ?? [];
  const strip = (a: MemberAddressInput): MemberAddressInput => ({ tag: a.tag, addressLine: a.addressLine, city: a.city, postalCode: a.postalCode, country: a.country, subdivision: a.subdivision });

  function add(v: Form) {
    save.mutate({ id, addresses: [...addresses.map(strip), v] }, { onSuccess: () => { reset(); setAdding(false); } });
  }

  return (
    <>
      <h1>Addresses</h1>
      {save.isError && <Notice kind="error">{plainError(save.error)}</Notice>}
      {addresses.length === 0 && !adding && <p className="muted">No saved addresses yet. Add one to check out faster.</p>}
      <ul className="address-list" role="list">
        {addresses.map((a, i) => (
          <li key={a._id ?? i} className="panel address">
            <p><strong>{TAGS[(a.tag ?? 'UNTAGGED') as Form['tag']] ?? 'Address'}</strong></p>
            <p>{a.addressLine}<br />{[a.postalCode, a.city].filter(Boolean).join(' ')}<br />{countryName(a.country)}</p>
            <button type="button" className="link" disabled={save.isPending} onClick={() => save.mutate({ id, addresses: addresses.filter((_, j) => j !== i).map(strip) })}>
              Remove<span className="visually-hidden"> {a.addressLine}</span>
            </button>
          </li>
        ))}
      </ul>
      {adding ? (
        <form className="panel form-grid" onSubmit={handleSubmit(add)} noValidate aria-labelledby="new-address-heading">
          <h2 id="new-address-heading">New address</h2>
          <SelectField label="Label" {...register('tag')}>
            {Object.entries(TAGS).map(([value, label]) => <option key={value} value={value}>{label}</option>)}
          </SelectField>
          <Field label="Street and number" autoComplete="address-line1" {...register('addressLine')} error={errors.addressLine?.message} />
          <div className="three">
            <Field label="City" autoComplete="address-level2" {...register('city')} error={errors.city?.message} />
            <Field label="Postal code" autoComplete="postal-code" {...register('postalCode')} error={errors.postalCode?.message} />
            <SelectField label="Country" {...register('country')}>
              {COUNTRIES.map(([code, name]) => <option key={code} value={code}>{name}</option>)}
            </SelectField>
          </div>
          <div className="actions">
            <button type="submit" className="button" disabled={save.isPending}>{save.isPending ? 'Saving…' : 'Save address'}</button>
            <button type="button" className="button secondary" onClick={() => setAdding(false)}>Cancel</button>
          </div>
        </form>
      ) : <p><button type="button" className="button secondary" onClick={() => setAdding(true)}>Add an address</button></p>}
    </>
  );
}
