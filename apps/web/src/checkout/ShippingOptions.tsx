import { useEffect, useRef } from 'react';
import type { Address, Checkout } from '@bodega/sdk';
import { selectedOptionCode, shippingOptions, type ShippingOptionView } from '../cart/queries.js';
import type { useUpdateCheckout } from './queries.js';

type Update = ReturnType<typeof useUpdateCheckout>;
type Contact = { firstName?: string; lastName?: string; phone?: string };

/** How long the address must stay as typed before its options are asked for (one request, not one a key). */
export const ADDRESS_SETTLE_MS = 500;

const addressKey = (a: Address | undefined) => (a ? [a.addressLine, a.city, a.postalCode, a.country, a.subdivision ?? ''].join('\u0000') : '');

/** The cheapest option; the first listed of those that cost the same. */
export function cheapest(options: readonly ShippingOptionView[]): ShippingOptionView | undefined {
  return options.reduce<ShippingOptionView | undefined>((best, o) => (best === undefined || o.amount < best.amount ? o : best), undefined);
}

/**
 * The checkout's shipping or pickup choice. Once the address is complete (`address` given) the
 * destination is saved and its options come by themselves; when none of them is chosen yet the
 * cheapest is chosen for the shopper, who can change it.
 */
export function ShippingOptions({ checkout, delivery, address, contact, update }: {
  checkout: Checkout;
  delivery: 'ship' | 'pickup';
  /** The shipping address as typed, once every field it needs is filled in. */
  address: Address | undefined;
  contact: Contact;
  update: Update;
}) {
  const destination = checkout.shippingInfo.shippingDestination;
  const options = shippingOptions(checkout.shippingInfo).filter((o) => o.pickup === (delivery === 'pickup'));
  const selected = selectedOptionCode(checkout.shippingInfo);
  const chosen = options.some((o) => o.code === selected);
  const { mutate, isPending } = update;

  // The destination follows the address as typed, once it has settled.
  const savedKey = addressKey(destination?.address);
  const typedKey = addressKey(address);
  const contactRef = useRef(contact);
  contactRef.current = contact;
  useEffect(() => {
    if (delivery !== 'ship' || !address || typedKey === savedKey) return;
    const timer = setTimeout(() => {
      const { firstName, lastName, phone } = contactRef.current;
      const contactDetails = { ...(firstName && { firstName }), ...(lastName && { lastName }), ...(phone && { phone }) };
      mutate({ shippingInfo: { shippingDestination: { address, ...(Object.keys(contactDetails).length > 0 && { contactDetails }) } } });
    }, ADDRESS_SETTLE_MS);
    return () => clearTimeout(timer);
    // `address` is a new object each render; its key says when it changed.
  }, [delivery, typedKey, savedKey, mutate]);

  // The cheapest option is chosen while none is; tried once per list, so a refusal does not loop.
  const best = cheapest(options);
  const tried = useRef('');
  const listKey = `${delivery}|${savedKey}|${options.map((o) => o.code).join(',')}`;
  useEffect(() => {
    if (chosen || isPending || !best || tried.current === listKey) return;
    tried.current = listKey;
    mutate({ shippingInfo: { selectedCarrierServiceOption: { code: best.code } } });
  }, [chosen, isPending, best, listKey, mutate]);

  const pickup = delivery === 'pickup';
  if (!pickup && !destination) {
    return <p className="muted small" role="status">{isPending ? 'Finding shipping options…' : 'Shipping options appear here once the address is complete.'}</p>;
  }
  return (
    <fieldset className="ship-options" aria-busy={isPending}>
      <legend>{pickup ? 'Pickup location' : 'Shipping option'}</legend>
      {options.length === 0 ? <p className="muted">{pickup ? 'This store has no pickup point.' : isPending ? 'Finding shipping options…' : 'No shipping to this address. Check it, or choose pickup.'}</p>
        : options.map((o) => (
          <label key={o.code} className="radio-row">
            <input type="radio" name="shipping-option" value={o.code} checked={selected === o.code} disabled={isPending}
              onChange={() => mutate({ shippingInfo: { selectedCarrierServiceOption: { code: o.code } } })} />
            <span className="radio-label">{o.title}{o.deliveryTime ? <span className="muted small"> · {o.deliveryTime}</span> : null}</span>
            <span>{o.amount === 0 ? 'Free' : o.price}</span>
          </label>
        ))}
    </fieldset>
  );
}
