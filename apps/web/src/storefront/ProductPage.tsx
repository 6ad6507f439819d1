import { lazy, Suspense, useEffect, useMemo, useRef, useState, type Ref } from 'react';
import { formatMoney, toMinor } from '../ui/money.js';
import { Link, useParams } from '../router/Router.js';
import { useAddToCart } from '../cart/queries.js';
import { GiftCardFields, giftDetailsProblem, giftTextFields, isGiftCardProduct, NO_GIFT_DETAILS, type GiftDetails } from '../gift-cards/GiftCardFields.js';
import { amountLimits, type AmountLimits, type OtherAmountHandle } from '../gift-cards/amount.js';
import { useGiftCardCustomAmounts } from '../gift-cards/queries.js';
import { useCartUi } from '../cart/CartUi.js';
import { plainError } from '../shop/errors.js';
import { Notice } from '../ui/Notice.js';
import { Price } from '../ui/Price.js';
import { Quantity } from '../ui/Quantity.js';
import { ErrorState, Loading } from '../ui/States.js';
import { usePageTitle } from '../ui/usePageTitle.js';
import { NotFound } from '../ui/NotFound.js';
import { imageSources, infoSections, inStock, plainText, priceOf, PRODUCT_IMAGE_SIZES, productImages, productOptions, productVariants, type Variant } from '../domain/product.js';
import { useProduct } from './queries.js';
import { RatingSummary } from './Rating.js';
import { useHydrated } from '../shop/context.js';

const Reviews = lazy(() => import('./Reviews.js'));
const BackInStock = lazy(() => import('./BackInStock.js'));
// react-hook-form and zod come with it: only a gift card that takes custom amounts loads them
// (started as soon as the shop says so, so it is there when the shopper picks "Other amount").
const loadOtherAmount = () => import('../gift-cards/OtherAmount.js');
const OtherAmount = lazy(loadOtherAmount);

/** The "Other amount" field once its bundle is there. */
function OtherAmountField({ limits, value, onChange, handle }: { limits: AmountLimits; value: string; onChange: (value: string) => void; handle: Ref<OtherAmountHandle> }) {
  return (
    <Suspense fallback={<div className="field other-amount" aria-busy="true" />}>
      <OtherAmount ref={handle} limits={limits} value={value} onChange={onChange} />
    </Suspense>
  );
}

function matches(variant: Variant, choices: Record<string, string>): boolean {
  return Object.entries(choices).every(([name, value]) => variant.choices[name] === value);
}

export default function ProductPage() {
  const { slug = '' } = useParams();
  const product = useProduct(slug);
  usePageTitle(product.data?.name ?? undefined);
  if (product.isPending) return <div className="container"><Loading label="Loading product…" lines={5} page /></div>;
  if (product.isError) return <div className="container"><ErrorState error={product.error} retry={() => void product.refetch()} /></div>;
  if (!product.data) return <NotFound what="product" />;
  return <ProductView key={product.data._id} product={product.data} />;
}

function ProductView({ product }: { product: NonNullable<ReturnType<typeof useProduct>['data']> }) {
  const images = productImages(product);
  const options = productOptions(product);
  const variants = useMemo(() => productVariants(product).filter((v) => v.visible), [product]);
  const [selected, setSelected] = useState<Record<string, string>>(() =>
    Object.fromEntries(options.filter((o) => o.choices.length === 1).map((o) => [o.name, o.choices[0].value])));
  const [imageIndex, setImageIndex] = useState(0);
  const [quantity, setQuantity] = useState(1);
  const [gift, setGift] = useState<GiftDetails>(NO_GIFT_DETAILS);
  const giftCard = isGiftCardProduct(product);
  const customAmounts = useGiftCardCustomAmounts(giftCard);
  const limits = giftCard ? amountLimits(customAmounts.data, product._id ?? undefined) : undefined;
  /** "Other amount" chosen: the shopper's own amount instead of the variants' (offered when the shop allows it). */
  const [other, setOther] = useState(false);
  const [typedAmount, setTypedAmount] = useState('');
  const amountField = useRef<OtherAmountHandle>(null);
  const customAmountsAllowed = limits !== undefined;
  useEffect(() => {
    if (customAmountsAllowed) void loadOtherAmount();
  }, [customAmountsAllowed]);
  const otherAmount = other && limits !== undefined;
  const add = useAddToCart();
  const { openCart } = useCartUi();
  const hydrated = useHydrated();

  const complete = otherAmount || options.every((o) => selected[o.name]);
  const variant = options.length === 0 || otherAmount ? variants[0] : complete ? variants.find((v) => matches(v, selected)) : undefined;
  const base = priceOf(product);
  const price = variant?.discountedPrice && variant.price && variant.discountedPrice !== variant.price
    ? { price: variant.discountedPrice, was: variant.price }
    : variant?.price ? { price: variant.price, was: undefined } : base;
  const typed = typedAmount.trim();
  // An amount within the limits as the shop writes money; otherwise the range it may take.
  const typedMinor = otherAmount ? toMinor(typed, limits.currency) : undefined;
  const inRange = otherAmount && typedMinor !== undefined && typedMinor >= (toMinor(limits.min, limits.currency) ?? 0n) && typedMinor <= (toMinor(limits.max, limits.currency) ?? -1n);
  const shown = otherAmount
    ? { price: inRange ? formatMoney(typed, limits.currency) : `${formatMoney(limits.min, limits.currency)}–${formatMoney(limits.max, limits.currency)}`, was: undefined }
    : price;
  const productInStock = inStock(product);
  const available = productInStock && (variant ? variant.inStock : true);
  const sku = otherAmount ? undefined : variant?.sku ?? product.sku;
  const max = variant?.quantity ?? 99;

  /**
   * A choice is open when some in-stock variant has it together with the other picks; sold out when
   * only sold-out ones do (still pickable: the shopper can ask to be told when it is back); gone when none does.
   */
  function choiceState(optionName: string, value: string): 'open' | 'sold-out' | 'gone' {
    if (!variants.length || !product.manageVariants) return 'open';
    const others = Object.fromEntries(Object.entries(selected).filter(([n]) => n !== optionName));
    const having = variants.filter((v) => v.choices[optionName] === value && matches(v, others));
    return having.some((v) => v.inStock) ? 'open' : having.length ? 'sold-out' : 'gone';
  }

  /** Picks a choice; its picture (set for it, or else one whose alt text names it) comes to the front. */
  function pick(name: string, value: string) {
    setOther(false);
    setSelected((s) => ({ ...s, [name]: value }));
    const word = new RegExp(`\\b${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i');
    const own = options.find((o) => o.name === name)?.choices.find((c) => c.value === value)?.imageUrl;
    const match = own ? images.findIndex((img) => img.url === own) : images.findIndex((img) => word.test(img.alt));
    if (match >= 0) setImageIndex(match);
  }

  let stockMessage = '';
  if (!productInStock) stockMessage = 'Out of stock';
  else if (variant && !variant.inStock) stockMessage = 'This combination is out of stock';
  else if (variant?.quantity !== undefined && variant.quantity <= 5) stockMessage = `Only ${variant.quantity} left`;
  else if (variant || options.length === 0) stockMessage = 'In stock, ready to ship';

  async function submit() {
    if (!complete || !available || (giftCard && giftDetailsProblem(gift))) return;
    let customAmount: string | undefined;
    if (otherAmount) {
      customAmount = await amountField.current?.amount();
      if (customAmount === undefined) return;
    }
    const choices = otherAmount ? variant?.choices : selected;
    add.mutate(
      { productId: product._id ?? '', variantId: product.manageVariants ? variant?.id : undefined, options: product.manageVariants ? undefined : choices, quantity,
        ...(giftCard && { customTextFields: giftTextFields(gift) }), ...(customAmount !== undefined && { customAmount }) },
      { onSuccess: () => openCart() },
    );
  }

  const image = images[imageIndex] ?? images[0];
  return (
    <div className="container product">
      <nav aria-label="Breadcrumb" className="breadcrumb"><Link to="/">Home</Link> <span aria-hidden="true">/</span> <Link to="/products">Shop</Link> <span aria-hidden="true">/</span> <span aria-current="page">{product.name}</span></nav>
      <div className="product-layout">
        <div className="gallery">
          <div className="gallery-main">
            {image ? <img {...imageSources(image, PRODUCT_IMAGE_SIZES)} alt={image.alt} width={image.width} height={image.height} fetchPriority="high" /> : <div className="card-placeholder" />}
            {product.ribbon && <span className="ribbon">{product.ribbon}</span>}
          </div>
          {images.length > 1 && (
            <div className="thumbs" role="group" aria-label="Pictures">
              {images.map((img, i) => (
                <button key={img.url + i} type="button" onClick={() => setImageIndex(i)} aria-pressed={i === imageIndex} aria-label={`Picture ${i + 1} of ${images.length}`}>
                  <img {...imageSources(img, '80px')} alt="" width={80} height={80} />
                </button>
              ))}
            </div>
          )}
        </div>
        <div className="product-info">
          <h1>{product.name}</h1>
          <RatingSummary productId={product._id ?? ''} />
          <p className="product-price" aria-live="polite"><Price price={shown.price} was={shown.was} from={'from' in shown ? shown.from : undefined} /></p>
          {product.description && <p className="product-description">{plainText(product.description)}</p>}
          <form className="buy" onSubmit={(e) => { e.preventDefault(); void submit(); }}>
            {options.map((option, optionIndex) => (
              <fieldset key={option.name} className="option">
                <legend>{option.name}{otherAmount && optionIndex === 0 ? <span className="muted">: Other amount</span> : selected[option.name] ? <span className="muted">: {selected[option.name]}</span> : null}</legend>
                <div className="choices">
                  {option.choices.map((choice) => {
                    const state = choice.inStock ? choiceState(option.name, choice.value) : product.manageVariants ? 'sold-out' : 'gone';
                    return (
                      <label key={choice.value} className={`choice ${state === 'open' ? '' : 'choice-off'}`}>
                        <input type="radio" name={option.name} value={choice.value} checked={!otherAmount && selected[option.name] === choice.value} disabled={state === 'gone'}
                          onChange={() => pick(option.name, choice.value)} />
                        <span>{choice.description}{state !== 'open' && <span className="visually-hidden">{state === 'gone' ? ' (unavailable)' : ' (sold out)'}</span>}</span>
                      </label>
                    );
                  })}
                  {limits && optionIndex === 0 && (
                    <label className="choice">
                      <input type="radio" name={option.name} value="" checked={otherAmount} onChange={() => setOther(true)} />
                      <span>Other amount</span>
                    </label>
                  )}
                </div>
                {otherAmount && optionIndex === 0 && <OtherAmountField limits={limits} value={typedAmount} onChange={setTypedAmount} handle={amountField} />}
              </fieldset>
            ))}
            {limits && options.length === 0 && (
              <fieldset className="option">
                <legend>Amount</legend>
                <div className="choices">
                  <label className="choice"><input type="radio" name="gift-amount" checked={!otherAmount} onChange={() => setOther(false)} /><span>{base.price}</span></label>
                  <label className="choice"><input type="radio" name="gift-amount" checked={otherAmount} onChange={() => setOther(true)} /><span>Other amount</span></label>
                </div>
                {otherAmount && <OtherAmountField limits={limits} value={typedAmount} onChange={setTypedAmount} handle={amountField} />}
              </fieldset>
            )}
            {giftCard && <GiftCardFields value={gift} onChange={setGift} today={new Date().toISOString().slice(0, 10)} />}
            {!(complete && !available) && <div className="buy-row">
              <Quantity label="Quantity" value={quantity} onChange={setQuantity} max={Math.max(1, max)} disabled={!available} />
              <button type="submit" className="button large" disabled={add.isPending || !available || !complete} aria-describedby="stock-message">
                {add.isPending ? 'Adding…' : !available ? 'Out of stock' : complete ? 'Add to cart' : `Choose ${options.filter((o) => !selected[o.name]).map((o) => o.name.toLowerCase()).join(' and ')}`}
              </button>
            </div>}
            <p id="stock-message" className={`stock ${available ? 'stock-ok' : 'stock-out'}`} aria-live="polite">{stockMessage}</p>
            {add.isError && <Notice kind="error">{plainError(add.error)}</Notice>}
          </form>
          {hydrated && complete && !available && (
            <Suspense fallback={null}>
              <BackInStock key={variant?.id ?? 'product'} item={{ productId: product._id ?? '', variantId: product.manageVariants ? variant?.id : undefined, slug: product.slug ?? '', price: price.price,
                name: [product.name, ...Object.values(selected)].filter(Boolean).join(' · ') }} />
            </Suspense>
          )}
          <dl className="facts">
            {sku && <><dt>SKU</dt><dd>{sku}</dd></>}
            <dt>Shipping</dt><dd>{product.productType === 'digital' ? 'Delivered by e-mail, no shipping' : 'Ships in 1–2 business days, or pick it up in store'}</dd>
          </dl>
          {infoSections(product).map((section) => (
            <details key={section.title} className="info">
              <summary>{section.title}</summary>
              <p>{section.text}</p>
            </details>
          ))}
        </div>
      </div>
      {hydrated && <Suspense fallback={null}><Reviews productId={product._id ?? ''} /></Suspense>}
    </div>
  );
}
