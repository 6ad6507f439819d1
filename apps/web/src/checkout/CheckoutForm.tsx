/** The checkout's form and summary, loaded by CheckoutPage while the checkout is fetched (react-hook-form comes with it). */
import { useEffect, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate } from '../router/Router.js';
import type { Address, Checkout } from '@bodega/sdk';
import { Totals } from '../cart/CartLines.js';
import { selectedOptionCode, shippingOptions } from '../cart/queries.js';
import { ShippingOptions } from './ShippingOptions.js';
import { imageSources, localUrl } from '../domain/product.js';
import { COUNTRIES } from '../shop/countries.js';
import { plainError } from '../shop/errors.js';
import { useCurrentMember } from '../shop/member.js';
import { Field, SelectField } from '../ui/Field.js';
import { Notice } from '../ui/Notice.js';
import { toMinor } from '../ui/money.js';
import { BackToApp, thankYouTarget } from './handover.js';
import { usePaymentOptions, usePlaceOrder, useUpdateCheckout, type Payment } from './queries.js';
import { PaymentStep, paymentProblem, type PaymentProblem, type PaymentStepHandle } from './PaymentStep.js';
import type { Form } from './form.js';
import { lazyResolver, usePreload } from '../ui/lazyResolver.js';
import { CheckoutGiftCards } from './GiftCards.js';
import { CheckoutTip } from './TipPicker.js';

const loadForm = () => import('./form.js');

/** A checkout line's picture: the wire calls it `media` here and `image` in the cart. */
function lineImage(line: Checkout['lineItems'][number]): string | undefined {
  return line.media?.url;
}

function addressOf(v: Form, billing: boolean): Address {
  return billing
    ? { addressLine: v.billingAddressLine, city: v.billingCity, postalCode: v.billingPostalCode, country: v.billingCountry }
    : { addressLine: v.addressLine, city: v.city, postalCode: v.postalCode, country: v.country, ...(v.region && { subdivision: `${v.country}-${v.region.toUpperCase()}` }) };
}

export default function CheckoutForm({ checkout, checkoutId, returnFailure }: { checkout: Checkout; checkoutId: string; returnFailure?: PaymentProblem }) {
  const navigate = useNavigate();
  const member = useCurrentMember();
  const update = useUpdateCheckout(checkoutId);
  const place = usePlaceOrder(checkoutId);
  const placing = useRef(false);
  const [failure, setFailure] = useState<PaymentProblem | undefined>(returnFailure);
  const paymentStep = useRef<PaymentStepHandle>(null);
  const paymentOptions = usePaymentOptions();
  const destination = checkout.shippingInfo.shippingDestination;

  usePreload(loadForm);
  const { register, handleSubmit, control, setValue, getValues, formState: { errors, isSubmitting } } = useForm<Form>({
    resolver: lazyResolver(loadForm),
    defaultValues: {
      email: checkout.buyerInfo?.email ?? '', delivery: 'ship',
      firstName: destination?.contactDetails?.firstName ?? '', lastName: destination?.contactDetails?.lastName ?? '', phone: destination?.contactDetails?.phone ?? '',
      addressLine: destination?.address?.addressLine ?? '', city: destination?.address?.city ?? '', region: destination?.address?.subdivision?.split('-')[1] ?? '', postalCode: destination?.address?.postalCode ?? '', country: destination?.address?.country ?? 'US',
      billingSame: true, billingAddressLine: '', billingCity: '', billingPostalCode: '', billingCountry: 'US',
    },
  });
  const [delivery, billingSame] = useWatch({ control, name: ['delivery', 'billingSame'] });
  const typed = useWatch({ control, name: ['addressLine', 'city', 'postalCode', 'country', 'region', 'firstName', 'lastName', 'phone'] });

  // A member's e-mail is filled in for them.
  const memberEmail = member.data?.loginEmail;
  useEffect(() => {
    if (memberEmail && !getValues('email')) setValue('email', memberEmail);
  }, [memberEmail, getValues, setValue]);

  const allOptions = shippingOptions(checkout.shippingInfo);
  const options = allOptions.filter((o) => o.pickup === (delivery === 'pickup'));
  const selected = selectedOptionCode(checkout.shippingInfo);
  const selectedOption = options.find((o) => o.code === selected);
  const needsShipping = allOptions.length > 0 || checkout.lineItems.some((l) => l.physicalProperties?.shippable !== false);
  const blocking = (checkout.violations ?? []).filter((v) => v.severity === 'ERROR');
  // Gift cards that pay the whole total leave nothing for a payment method to take.
  const coveredByCards = (checkout.giftCards ?? (checkout.giftCard ? [checkout.giftCard] : [])).length > 0
    && toMinor(checkout.priceSummary?.total?.amount ?? '', checkout.currency ?? '') === 0n;

  // The shipping address once every field it needs is filled in (its options then load by themselves).
  const [addressLine, city, postalCode, country, region, firstName, lastName, phone] = typed.map((x) => (x ?? '').trim());
  const addressComplete = addressLine !== '' && city !== '' && postalCode !== '' && country !== '' && /^[A-Za-z0-9]{0,3}$/.test(region);
  const typedAddress: Address | undefined = addressComplete ? { addressLine, city, postalCode, country, ...(region && { subdivision: `${country}-${region.toUpperCase()}` }) } : undefined;

  async function submit(v: Form) {
    if (placing.current) return; // a double click never places two orders
    setFailure(undefined);
    if (needsShipping && allOptions.length > 0 && !selectedOption) {
      setFailure({ message: delivery === 'pickup' ? 'Choose where to pick up your order.' : 'Choose a shipping option (its choices appear once the address is complete).', retry: false });
      return;
    }
    const token = coveredByCards ? 'gift-cards' : await paymentStep.current?.token();
    if (!token) return;
    placing.current = true;
    try {
      const contact = { firstName: v.firstName, lastName: v.lastName, ...(v.phone && { phone: v.phone }) };
      const billing = v.delivery === 'ship' && v.billingSame ? addressOf(v, false) : addressOf(v, true);
      const updated = await update.mutateAsync({
        buyerInfo: { email: v.email },
        billingInfo: { address: billing, contactDetails: contact },
        ...(v.delivery === 'ship' && { shippingInfo: { shippingDestination: { address: addressOf(v, false), contactDetails: contact }, ...(selectedOption && { selectedCarrierServiceOption: { code: selectedOption.code } }) } }),
      });
      const errorsNow = (updated.violations ?? []).filter((x) => x.severity === 'ERROR');
      if (errorsNow.length) {
        setFailure({ message: errorsNow.map((x) => x.description).join(' '), retry: false });
        return;
      }
      await pay(coveredByCards ? { kind: 'offline' } : { kind: 'card', token });
    } catch (error) {
      setFailure(paymentProblem(error));
    } finally {
      placing.current = false;
    }
  }

  /** No order is shown as placed before the money is authorized (or an offline method chosen). */
  async function pay(payment: Payment) {
    const orderId = await place.mutateAsync(payment);
    const next = thankYouTarget(checkoutId, orderId);
    if (next.external) window.location.assign(next.url);
    else navigate(next.url);
  }

  /** After the bank's check (3-D Secure): the same payment is asked for again and the order placed. */
  async function confirmAndPay(problem: PaymentProblem) {
    if (placing.current) return;
    placing.current = true;
    try {
      if (!(await paymentStep.current?.confirm(problem))) {
        setFailure({ message: 'The bank did not confirm the payment. Try again, or use another card.', retry: true });
        return;
      }
      setFailure(undefined);
      await pay({ kind: 'card', token: 'resume' });
    } catch (error) {
      setFailure(paymentProblem(error));
    } finally {
      placing.current = false;
    }
  }

  const busy = isSubmitting || place.isPending;
  return (
    <div className="container checkout">
      <h1>Checkout</h1>
      <div className="checkout-layout">
        <form onSubmit={handleSubmit(submit)} noValidate className="checkout-form" aria-busy={busy}>
          <section className="panel" aria-labelledby="contact-heading">
            <h2 id="contact-heading"><span className="step" aria-hidden="true">1</span> Contact</h2>
            <Field label="E-mail" type="email" autoComplete="email" {...register('email')} error={errors.email?.message} hint="For the order confirmation." />
            <div className="two">
              <Field label="First name" autoComplete="given-name" {...register('firstName')} error={errors.firstName?.message} />
              <Field label="Last name" autoComplete="family-name" {...register('lastName')} error={errors.lastName?.message} />
            </div>
            <Field label="Phone (optional)" type="tel" autoComplete="tel" {...register('phone')} error={errors.phone?.message} />
          </section>

          <section className="panel" aria-labelledby="delivery-heading">
            <h2 id="delivery-heading"><span className="step" aria-hidden="true">2</span> Delivery</h2>
            <fieldset className="segmented">
              <legend className="visually-hidden">How you get your order</legend>
              <label><input type="radio" value="ship" {...register('delivery')} /> <span>Ship to me</span></label>
              <label><input type="radio" value="pickup" {...register('delivery')} /> <span>Pick up in store</span></label>
            </fieldset>
            {delivery === 'ship' ? (
              <>
                <Field label="Street and number" autoComplete="address-line1" {...register('addressLine')} error={errors.addressLine?.message} />
                <div className="two">
                  <Field label="City" autoComplete="address-level2" {...register('city')} error={errors.city?.message} />
                  <Field label="State or region (optional)" autoComplete="address-level1" hint="2-letter code, like NY" {...register('region')} error={errors.region?.message} />
                </div>
                <div className="two">
                  <Field label="Postal code" autoComplete="postal-code" {...register('postalCode')} error={errors.postalCode?.message} />
                  <SelectField label="Country" autoComplete="country" {...register('country')}>
                    {COUNTRIES.map(([code, name]) => <option key={code} value={code}>{name}</option>)}
                  </SelectField>
                </div>
              </>
            ) : null}
            <ShippingOptions checkout={checkout} delivery={delivery} address={delivery === 'ship' ? typedAddress : undefined} contact={{ firstName, lastName, phone }} update={update} />
            {update.isError && !failure && <Notice kind="error">{plainError(update.error)}</Notice>}
          </section>

          <section className="panel" aria-labelledby="payment-heading">
            <h2 id="payment-heading"><span className="step" aria-hidden="true">3</span> Payment</h2>
            {coveredByCards
              ? <p className="muted">Your gift cards pay the whole order: there is nothing left to pay.</p>
              : <PaymentStep ref={paymentStep} options={paymentOptions.data} total={{ amount: checkout.priceSummary?.total?.amount, currency: checkout.currency }} />}
            {delivery === 'ship' && (
              <label className="check"><input type="checkbox" {...register('billingSame')} /> Billing address is the shipping address</label>
            )}
            {(delivery === 'pickup' || !billingSame) && (
              <div className="billing">
                <h3>Billing address</h3>
                <Field label="Billing street and number" autoComplete="billing address-line1" {...register('billingAddressLine')} error={errors.billingAddressLine?.message} />
                <div className="three">
                  <Field label="Billing city" autoComplete="billing address-level2" {...register('billingCity')} error={errors.billingCity?.message} />
                  <Field label="Billing postal code" autoComplete="billing postal-code" {...register('billingPostalCode')} error={errors.billingPostalCode?.message} />
                  <SelectField label="Billing country" autoComplete="billing country" {...register('billingCountry')}>
                    {COUNTRIES.map(([code, name]) => <option key={code} value={code}>{name}</option>)}
                  </SelectField>
                </div>
              </div>
            )}
          </section>

          <section className="panel" aria-labelledby="review-heading">
            <h2 id="review-heading"><span className="step" aria-hidden="true">4</span> Review and place order</h2>
            {blocking.length > 0 && <Notice kind="error">{blocking.map((v) => v.description).join(' ')} <Link to="/cart">Back to the cart</Link></Notice>}
            {failure && (
              <Notice kind="error">
                <p>{failure.message}</p>
                {failure.action && (
                  <p><button type="button" className="button secondary" onClick={() => void confirmAndPay(failure)} disabled={busy}>Confirm with your bank</button></p>
                )}
                {failure.retry && !failure.action && <p className="small">Your cart and details are kept; you can try again.</p>}
              </Notice>
            )}
            <p className="muted small">By placing the order you agree to pay the total shown, as calculated by the store.</p>
            <button type="submit" className="button large block" disabled={busy}>
              {busy ? 'Placing your order…' : `Place order · ${checkout.priceSummary?.total?.formattedAmount ?? ''}`}
            </button>
          </section>
        </form>

        <aside className="summary checkout-summary" aria-labelledby="checkout-summary-heading">
          <h2 id="checkout-summary-heading">Your order</h2>
          <ul className="mini-lines" role="list">
            {checkout.lineItems.map((line) => (
              <li key={line._id}>
                {lineImage(line) ? <img {...imageSources({ url: localUrl(lineImage(line) ?? '') }, '56px')} alt="" width={56} height={56} /> : <span className="line-image" />}
                <span className="mini-name">{line.productName?.original}<span className="muted small"> × {line.quantity}</span></span>
                <span>{line.lineItemPrice?.formattedAmount ?? line.price?.formattedAmount}</span>
              </li>
            ))}
          </ul>
          <CheckoutTip checkout={checkout} checkoutId={checkoutId} />
          <CheckoutGiftCards checkout={checkout} checkoutId={checkoutId} />
          <Totals summary={checkout.priceSummary} fees={checkout.additionalFees} currency={checkout.currency} shippingLater={needsShipping && !selectedOption ? 'Not chosen yet' : false} />
          <p className="muted small"><Link to="/cart">Edit cart</Link></p>
          <BackToApp checkoutId={checkoutId} />
        </aside>
      </div>
    </div>
  );
}
