import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from '../router/Router.js';
import { TIPS_APP_ID, type AppliedDiscount, type Cart, type LineItem, type Price, type Violation } from '@bodega/sdk';
import { imageSources, localUrl } from '../domain/product.js';
import { plainError } from '../shop/errors.js';
import { Notice } from '../ui/Notice.js';
import { formatMoney, fromMinor, isPositiveAmount, isZeroAmount, toMinor } from '../ui/money.js';
import { Quantity } from '../ui/Quantity.js';
import { useApplyCoupon, useRemoveCoupon, useRemoveLine, useSetQuantity, useStartCheckout } from './queries.js';

function describeOptions(line: LineItem): string {
  return (line.descriptionLines ?? []).map((d) => {
    const name = d.name.original;
    const plain = d.plainText?.original ?? d.colorInfo?.original;
    return name && plain ? `${name}: ${plain}` : '';
  }).filter(Boolean).join(' · ');
}

export function CartLines({ cart, violations = [], compact = false }: { cart: Cart; violations?: Violation[]; compact?: boolean }) {
  const setQuantity = useSetQuantity();
  const remove = useRemoveLine();
  const error = setQuantity.error ?? remove.error;
  return (
    <>
      {error && <Notice kind="error">{plainError(error)}</Notice>}
      <ul className={`lines ${compact ? 'lines-compact' : ''}`} role="list">
        {cart.lineItems.map((line) => {
          const id = line._id ?? '';
          const name = line.productName?.translated ?? line.productName?.original ?? 'Item';
          const lineViolations = violations.filter((v) => v.target?.lineItem?._id === id);
          const slug = line.url?.relativePath?.split('/').pop();
          const options = describeOptions(line);
          return (
            <li key={id} className="line">
              {line.image?.url ? <img className="line-image" {...imageSources({ url: localUrl(line.image.url) }, '72px')} alt="" width={72} height={72} /> : <div className="line-image" />}
              <div className="line-body">
                <p className="line-name">{slug ? <Link to={`/products/${slug}`}>{name}</Link> : name}</p>
                {options && <p className="muted small">{options}</p>}
                <p className="small">{line.price?.formattedAmount}{line.fullPrice?.amount && line.price?.amount !== line.fullPrice.amount ? <s className="price-was"> {line.fullPrice.formattedAmount}</s> : null}</p>
                {lineViolations.map((v, i) => (
                  <div key={i} className="violation" role="alert">
                    <p>{v.description}</p>
                    {v.target.lineItem?.suggestedFix === 'REMOVE_LINE_ITEM' && <button type="button" className="link" onClick={() => remove.mutate(id)}>Remove it from the cart</button>}
                  </div>
                ))}
                <div className="line-actions">
                  <Quantity label={`Quantity of ${name}`} value={line.quantity ?? 1} disabled={setQuantity.isPending}
                    onChange={(quantity) => setQuantity.mutate({ lineId: id, quantity })} />
                  <button type="button" className="link" onClick={() => remove.mutate(id)} disabled={remove.isPending} aria-label={`Remove ${name}`}>Remove</button>
                </div>
              </div>
              <p className="line-total">{line.lineItemPrice?.formattedAmount ?? line.price?.formattedAmount}</p>
            </li>
          );
        })}
      </ul>
    </>
  );
}

export function CouponForm({ cart }: { cart: Cart }) {
  const apply = useApplyCoupon();
  const removeCoupon = useRemoveCoupon();
  const [code, setCode] = useState('');
  const applied = cart.appliedDiscounts?.find((d: AppliedDiscount) => d.coupon?.code)?.coupon;
  if (applied) {
    return (
      <div className="coupon-applied">
        <p role="status">Code <strong>{applied.code}</strong> applied{applied.amount?.formattedAmount ? `: −${applied.amount.formattedAmount}` : ''}</p>
        <button type="button" className="link" onClick={() => removeCoupon.mutate()} disabled={removeCoupon.isPending}>Remove code</button>
      </div>
    );
  }
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (code.trim()) apply.mutate(code.trim(), { onSuccess: () => setCode('') });
  }
  return (
    <form className="coupon" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor="coupon-code">Discount code</label>
        <div className="inline">
          <input id="coupon-code" value={code} onChange={(e) => { setCode(e.target.value); apply.reset(); }} autoComplete="off"
            aria-invalid={apply.isError || undefined} aria-describedby={apply.isError ? 'coupon-error' : undefined} />
          <button type="submit" className="button secondary" disabled={apply.isPending || !code.trim()}>{apply.isPending ? 'Applying…' : 'Apply'}</button>
        </div>
        {apply.isError && <p id="coupon-error" className="error" role="alert">{plainError(apply.error)}</p>}
      </div>
    </form>
  );
}

/** Totals as the server computed them; rows it did not send are left out. */
/**
 * `shippingLater`: no shipping chosen yet, so the shipping line reads "At checkout" (or the text
 * given) rather than a misleading $0.00 or "Free".
 */
export function Totals({ summary, note, shippingLater, fees: feeList, currency }: {
  summary: (Record<'subtotal' | 'discount' | 'shipping' | 'tax' | 'total', Price> & { additionalFees?: Price; totalAdditionalFees?: Price }) | undefined;
  note?: string;
  shippingLater?: boolean | string;
  /** A checkout's or order's `additionalFees`, with its currency: a tip among them is its own "Tip" row. */
  fees?: readonly { providerAppId?: string; price?: Price }[];
  currency?: string;
}) {
  if (!summary) return null;
  const discount = isPositiveAmount(summary.discount?.amount) ? summary.discount : undefined;
  // Handling and insurance (a cart's or checkout's `additionalFees`, an order's `totalAdditionalFees`), before tax.
  const allFees = summary.additionalFees ?? summary.totalAdditionalFees;
  const tip = feeList?.find((f) => f.providerAppId === TIPS_APP_ID)?.price;
  const fees = tip && currency ? feesWithoutTip(allFees, tip, currency) : allFees;
  return (
    <>
    <dl className="totals">
      <div><dt>Subtotal</dt><dd>{summary.subtotal?.formattedAmount}</dd></div>
      {discount && <div className="discount"><dt>Discount</dt><dd>−{discount.formattedAmount}</dd></div>}
      {shippingLater ? <div><dt>Shipping</dt><dd className="muted">{shippingLater === true ? 'At checkout' : shippingLater}</dd></div>
        : summary.shipping?.formattedAmount && <div><dt>Shipping</dt><dd>{isZeroAmount(summary.shipping.amount) ? 'Free' : summary.shipping.formattedAmount}</dd></div>}
      {isPositiveAmount(fees?.amount) && <div><dt>Fees</dt><dd>{fees?.formattedAmount}</dd></div>}
      {isPositiveAmount(tip?.amount) && <div className="tip"><dt>Tip</dt><dd>{tip?.formattedAmount}</dd></div>}
      {isPositiveAmount(summary.tax?.amount) && <div><dt>Tax</dt><dd>{summary.tax?.formattedAmount}</dd></div>}
      <div className="grand"><dt>Total</dt><dd>{summary.total?.formattedAmount}</dd></div>
    </dl>
    {note && <p className="muted small totals-note">{note}</p>}
    </>
  );
}

/** The fees' total (which includes a tip on the wire) less the tip, in exact minor units. */
function feesWithoutTip(all: Price | undefined, tip: Price, currency: string): Price | undefined {
  const total = toMinor(all?.amount ?? '', currency);
  const tipped = toMinor(tip.amount ?? '', currency);
  if (total === undefined || tipped === undefined) return all;
  const rest = fromMinor(total - tipped, currency);
  return { amount: rest, formattedAmount: formatMoney(rest, currency) };
}

export function CheckoutButton({ disabled, onStarted }: { disabled?: boolean; onStarted?: () => void }) {
  const start = useStartCheckout();
  const navigate = useNavigate();
  return (
    <>
      <button type="button" className="button large block" disabled={disabled || start.isPending}
        onClick={() => start.mutate(undefined, { onSuccess: (id) => { onStarted?.(); navigate(`/checkout?checkoutId=${encodeURIComponent(id)}`); } })}>
        {start.isPending ? 'Starting checkout…' : 'Check out'}
      </button>
      {start.isError && <Notice kind="error">{plainError(start.error)}</Notice>}
    </>
  );
}
