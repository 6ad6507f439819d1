import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useFieldArray, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Product } from '@bodega/sdk';
import { productImages, productOptions, productVariants } from '../../domain/product.js';
import { Field, SelectField } from '../../ui/Field.js';
import { ErrorState, Loading } from '../../ui/States.js';
import type { AdminClient } from '../client.js';
import { useAdmin } from '../context.js';
import { Confirm, PageHead, useResult } from '../ui.js';
import { useStoreCollections } from './queries.js';
import { BackInStockPanel } from './BackInStockPanel.js';

const decimal = /^\d{1,9}(\.\d{1,2})?$/;
const optionalNumber = z.string().trim().refine((v) => v === '' || (/^\d+(\.\d+)?$/.test(v) && Number.isFinite(Number(v))), 'Enter a number');

const schema = z.object({
  name: z.string().trim().min(1, 'Give the product a name').max(80, 'At most 80 characters'),
  description: z.string().max(16000),
  price: z.string().trim().regex(decimal, 'Enter a price like 12.50'),
  discountType: z.enum(['NONE', 'PERCENT', 'AMOUNT']),
  discountValue: optionalNumber,
  sku: z.string().trim().max(40, 'At most 40 characters'),
  weight: optionalNumber,
  visible: z.boolean(),
  ribbon: z.string().trim().max(30, 'At most 30 characters'),
  images: z.string().refine((v) => v.split('\n').map((l) => l.trim()).filter(Boolean).every((l) => /^https?:\/\/\S+$|^\/media\/\S+$/.test(l)), 'One http(s) address per line'),
  trackInventory: z.boolean(),
  quantity: z.string().trim().refine((v) => v === '' || /^\d{1,8}$/.test(v), 'A whole number'),
  collectionIds: z.array(z.string()),
  options: z.array(z.object({
    name: z.string().trim().min(1, 'Name the option').max(50),
    choices: z.string().refine((v) => v.split(',').map((c) => c.trim()).filter(Boolean).length > 0, 'List the choices, separated by commas'),
  })).max(6),
});
type Form = z.infer<typeof schema>;

interface VariantRow { price: string; sku: string; weight: string; stock: string }
type VariantRows = Record<string, VariantRow>;

const choicesOf = (o: Form['options'][number]) => [...new Set(o.choices.split(',').map((c) => c.trim()).filter(Boolean))];

/** Every combination of the options' choices, as `{option: choice}` maps. */
function combinations(options: Form['options']): Record<string, string>[] {
  let out: Record<string, string>[] = [{}];
  for (const o of options) {
    const name = o.name.trim();
    const choices = choicesOf(o);
    if (!name || choices.length === 0) continue;
    out = out.flatMap((c) => choices.map((choice) => ({ ...c, [name]: choice })));
  }
  return options.some((o) => o.name.trim() && choicesOf(o).length) ? out : [];
}
const keyOf = (choices: Record<string, string>) => Object.entries(choices).map(([k, v]) => `${k}=${v}`).join('|');

function toForm(p: Product | undefined): Form {
  if (!p) {
    return { name: '', description: '', price: '', discountType: 'NONE', discountValue: '', sku: '', weight: '', visible: true, ribbon: '', images: '', trackInventory: true, quantity: '', collectionIds: [], options: [] };
  }
  const discount = p.discount?.type === 'PERCENT' || p.discount?.type === 'AMOUNT' ? p.discount.type : 'NONE';
  return {
    name: p.name ?? '', description: p.description ?? '', price: String(p.priceData?.price ?? ''), discountType: discount,
    discountValue: discount === 'NONE' ? '' : String(p.discount?.value ?? ''), sku: p.sku ?? '', weight: p.weight ? String(p.weight) : '',
    visible: p.visible !== false, ribbon: p.ribbon ?? '', images: productImages(p).map((i) => i.url).join('\n'),
    trackInventory: p.stock?.trackInventory === true, quantity: p.stock?.trackInventory ? String(p.stock.quantity ?? 0) : '',
    collectionIds: (p.collectionIds ?? []).filter((id) => id !== '00000000-000000-000000-000000000001'),
    options: productOptions(p).map((o) => ({ name: o.name, choices: o.choices.map((c) => c.value).join(', ') })),
  };
}

function variantRows(p: Product | undefined): VariantRows {
  const rows: VariantRows = {};
  if (!p?.manageVariants) return rows;
  for (const v of productVariants(p)) {
    const raw = (p.variants ?? []).find((x) => (x as { _id?: string })._id === v.id) as { variant?: { priceData?: { price?: number }; weight?: number; sku?: string } } | undefined;
    rows[keyOf(v.choices)] = { price: String(raw?.variant?.priceData?.price ?? ''), sku: v.sku ?? '', weight: raw?.variant?.weight ? String(raw.variant.weight) : '', stock: v.quantity !== undefined ? String(v.quantity) : '' };
  }
  return rows;
}

async function save(api: AdminClient, id: string | undefined, before: Product | undefined, form: Form, rows: VariantRows): Promise<string> {
  const combos = combinations(form.options);
  const hasVariants = combos.length > 0;
  const productOptionsWire = form.options.map((o) => ({ name: o.name.trim(), optionType: 'drop_down', choices: choicesOf(o).map((c) => ({ value: c, description: c })) }));
  const optionsChanged = JSON.stringify(toForm(before).options) !== JSON.stringify(form.options);
  const base: Product = {
    name: form.name, description: form.description, priceData: { price: Number(form.price) }, visible: form.visible, productType: 'physical',
    ...(form.sku ? { sku: form.sku } : {}), ...(form.weight ? { weight: Number(form.weight) } : {}),
    ...(form.ribbon ? { ribbon: form.ribbon } : {}),
    discount: form.discountType === 'NONE' ? { type: 'NONE', value: 0 } : { type: form.discountType, value: Number(form.discountValue || 0) },
    stock: hasVariants ? { trackInventory: form.trackInventory } : { trackInventory: form.trackInventory, ...(form.trackInventory ? { quantity: Number(form.quantity || 0) } : { inStock: true }) },
    ...(!id || optionsChanged ? { manageVariants: hasVariants, productOptions: productOptionsWire } : {}),
  };
  let productId = id;
  if (productId) await api.products.updateProduct(productId, base);
  else productId = (await api.products.createProduct(base)).product?._id;
  if (!productId) throw new Error('The server did not answer with the product');
  if (id && before?.ribbon && !form.ribbon) await api.products.removeProductRibbon(productId);

  const images = form.images.split('\n').map((l) => l.trim()).filter(Boolean);
  const oldImages = before ? productImages(before).map((i) => i.url) : [];
  if (JSON.stringify(images) !== JSON.stringify(oldImages)) {
    if (oldImages.length) await api.products.removeProductMedia(productId, []);
    if (images.length) await api.products.addProductMedia(productId, images.map((url) => ({ url })));
  }

  if (hasVariants) {
    await api.products.updateProductVariants(productId, combos.map((choices) => {
      const row = rows[keyOf(choices)];
      return {
        choices,
        ...(row?.price ? { price: Number(row.price) } : { price: Number(form.price) }),
        ...(row?.sku ? { sku: row.sku } : {}),
        ...(row?.weight ? { weight: Number(row.weight) } : {}),
      };
    }));
    if (form.trackInventory) {
      const saved = (await api.products.getProduct(productId)).product;
      const variants = productVariants(saved ?? {}).map((v) => ({ variantId: v.id, quantity: Number(rows[keyOf(v.choices)]?.stock || 0) }));
      await api.inventory.updateInventoryVariants(productId, { trackQuantity: true, variants });
    }
  }

  const oldCollections = new Set(toForm(before).collectionIds);
  const newCollections = new Set(form.collectionIds);
  for (const c of newCollections) if (!oldCollections.has(c)) await api.products.addProductsToCollection(c, [productId]);
  for (const c of oldCollections) if (!newCollections.has(c)) await api.products.removeProductsFromCollection(c, [productId]);
  return productId;
}

export default function ProductEditPage() {
  const { productId } = useParams();
  const { api } = useAdmin();
  const product = useQuery({
    queryKey: ['admin', 'product', productId],
    enabled: productId !== undefined,
    queryFn: async () => (await api.products.getProduct(productId ?? '', { includeMerchantSpecificData: true })).product ?? null,
  });
  if (productId && product.isPending) return <Loading label="Loading the product…" />;
  if (productId && product.isError) return <><PageHead title="Product" /><ErrorState error={product.error} retry={() => void product.refetch()} /></>;
  return <ProductForm key={productId ?? 'new'} id={productId} before={product.data ?? undefined} />;
}

function ProductForm({ id, before }: { id?: string; before?: Product }) {
  const { api } = useAdmin();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const collections = useStoreCollections();
  const result = useResult();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [rows, setRows] = useState<VariantRows>(() => variantRows(before));
  const { register, handleSubmit, control, watch, formState: { errors } } = useForm<Form>({ resolver: zodResolver(schema), defaultValues: toForm(before) });
  const options = useFieldArray({ control, name: 'options' });
  const watched = watch('options');
  const trackInventory = watch('trackInventory');
  const discountType = watch('discountType');
  const combos = useMemo(() => combinations(watched ?? []), [JSON.stringify(watched)]);

  const saving = useMutation({
    mutationFn: (form: Form) => save(api, id, before, form, rows),
    onSuccess: async (savedId) => {
      await queryClient.invalidateQueries({ queryKey: ['admin', 'products'] });
      await queryClient.invalidateQueries({ queryKey: ['admin', 'product', savedId] });
      if (!id) navigate(`/admin/products/${savedId}`, { replace: true, state: { created: true } });
      else result.ok('Saved.');
    },
    onError: (error) => result.fail(error),
  });
  const removing = useMutation({
    mutationFn: () => api.products.deleteProduct(id ?? ''),
    onSuccess: async () => { await queryClient.invalidateQueries({ queryKey: ['admin', 'products'] }); navigate('/admin/products', { replace: true }); },
  });
  useEffect(() => {
    if (window.history.state?.usr?.created) result.ok('Product created.');
  }, []);
  const setRow = (key: string, field: keyof VariantRow, value: string) => setRows((r) => ({ ...r, [key]: { ...(r[key] ?? { price: '', sku: '', weight: '', stock: '' }), [field]: value } }));

  return (
    <>
      <p className="small"><Link to="/admin/products">← Products</Link></p>
      <PageHead title={id ? before?.name ?? 'Product' : 'New product'}>
        {id && before?.slug && <a className="button secondary" href={`/products/${before.slug}`} target="_blank" rel="noreferrer">View in shop</a>}
        {id && <button type="button" className="button secondary danger-outline" onClick={() => setConfirmDelete(true)}>Delete</button>}
      </PageHead>
      {result.view}
      <form className="product-form" noValidate onSubmit={(e) => { result.clear(); void handleSubmit((form) => saving.mutate(form))(e); }}>
        <section className="panel" aria-labelledby="basics">
          <h2 id="basics">Basics</h2>
          <Field label="Name" {...register('name')} error={errors.name?.message} />
          <div className="field">
            <label htmlFor="description">Description</label>
            <textarea id="description" rows={4} {...register('description')} />
          </div>
          <div className="three-cols">
            <Field label="Price" inputMode="decimal" {...register('price')} error={errors.price?.message} />
            <SelectField label="Discount" {...register('discountType')}>
              <option value="NONE">None</option><option value="PERCENT">Percent off</option><option value="AMOUNT">Amount off</option>
            </SelectField>
            {discountType !== 'NONE' && <Field label={discountType === 'PERCENT' ? 'Percent off' : 'Amount off'} inputMode="decimal" {...register('discountValue')} error={errors.discountValue?.message} />}
          </div>
          <div className="three-cols">
            <Field label="SKU" {...register('sku')} error={errors.sku?.message} />
            <Field label="Weight" inputMode="decimal" {...register('weight')} error={errors.weight?.message} />
            <Field label="Ribbon" hint="A short label such as “New”" {...register('ribbon')} error={errors.ribbon?.message} />
          </div>
          <label className="check"><input type="checkbox" {...register('visible')} /> Visible in the shop</label>
        </section>

        <section className="panel" aria-labelledby="images">
          <h2 id="images">Images</h2>
          <div className="field">
            <label htmlFor="image-urls">Image addresses</label>
            <textarea id="image-urls" rows={3} placeholder="https://…" aria-describedby="image-hint" aria-invalid={errors.images ? true : undefined} {...register('images')} />
            <p id="image-hint" className="hint">One address per line; the first is the main image.</p>
            {errors.images && <p className="error">{errors.images.message}</p>}
          </div>
        </section>

        <section className="panel" aria-labelledby="options-heading">
          <h2 id="options-heading">Options and variants</h2>
          <p className="muted small">Options such as size or colour. Each combination becomes a variant with its own price, SKU, weight and stock.</p>
          {options.fields.map((field, i) => (
            <fieldset key={field.id} className="option-row">
              <legend className="visually-hidden">Option {i + 1}</legend>
              <Field label={`Option ${i + 1} name`} placeholder="Size" {...register(`options.${i}.name`)} error={errors.options?.[i]?.name?.message} />
              <Field label={`Option ${i + 1} choices`} placeholder="S, M, L" hint="Separated by commas" {...register(`options.${i}.choices`)} error={errors.options?.[i]?.choices?.message} />
              <button type="button" className="link" onClick={() => options.remove(i)}>Remove option {i + 1}</button>
            </fieldset>
          ))}
          {options.fields.length < 6 && <p><button type="button" className="button secondary small" onClick={() => options.append({ name: '', choices: '' })}>Add an option</button></p>}
          {combos.length > 0 && (
            <div className="table-wrap">
              <table className="table variants cards">
                <caption className="visually-hidden">Variants</caption>
                <thead><tr><th scope="col">Variant</th><th scope="col">Price</th><th scope="col">SKU</th><th scope="col">Weight</th><th scope="col">Stock</th></tr></thead>
                <tbody>
                  {combos.map((choices) => {
                    const key = keyOf(choices);
                    const label = Object.values(choices).join(' / ');
                    const row = rows[key] ?? { price: '', sku: '', weight: '', stock: '' };
                    return (
                      <tr key={key}>
                        <th scope="row">{label}</th>
                        <td data-label="Price"><input aria-label={`Price of ${label}`} inputMode="decimal" placeholder={watch('price')} value={row.price} onChange={(e) => setRow(key, 'price', e.target.value)} /></td>
                        <td data-label="SKU"><input aria-label={`SKU of ${label}`} value={row.sku} onChange={(e) => setRow(key, 'sku', e.target.value)} /></td>
                        <td data-label="Weight"><input aria-label={`Weight of ${label}`} inputMode="decimal" value={row.weight} onChange={(e) => setRow(key, 'weight', e.target.value)} /></td>
                        <td data-label="Stock"><input aria-label={`Stock of ${label}`} inputMode="numeric" disabled={!trackInventory} value={row.stock} onChange={(e) => setRow(key, 'stock', e.target.value)} /></td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          )}
        </section>

        <section className="panel" aria-labelledby="stock-heading">
          <h2 id="stock-heading">Inventory</h2>
          <label className="check"><input type="checkbox" {...register('trackInventory')} /> Track the quantity in stock</label>
          {trackInventory && combos.length === 0 && <Field label="Quantity in stock" inputMode="numeric" {...register('quantity')} error={errors.quantity?.message} />}
          {trackInventory && combos.length > 0 && <p className="muted small">Each variant’s stock is set in the table above.</p>}
        </section>

        <section className="panel" aria-labelledby="collections-heading">
          <h2 id="collections-heading">Collections</h2>
          <fieldset className="checks">
            <legend className="visually-hidden">Collections</legend>
            {(collections.data ?? []).filter((c) => c._id !== '00000000-000000-000000-000000000001').map((c) => (
              <label key={c._id} className="check"><input type="checkbox" value={c._id} {...register('collectionIds')} /> {c.name}</label>
            ))}
          </fieldset>
        </section>
        <div className="form-foot">
          <button type="submit" className="button large" disabled={saving.isPending}>{saving.isPending ? 'Saving…' : id ? 'Save changes' : 'Create product'}</button>
        </div>
      </form>
      {id && before && <BackInStockPanel product={before} />}
      <Confirm open={confirmDelete} onOpenChange={setConfirmDelete} title={`Delete ${before?.name ?? 'this product'}?`} confirmLabel="Delete product"
        busy={removing.isPending} error={removing.error} onConfirm={() => removing.mutate()}>
        <p>It disappears from the shop and from every collection. Past orders keep their lines.</p>
      </Confirm>
    </>
  );
}
