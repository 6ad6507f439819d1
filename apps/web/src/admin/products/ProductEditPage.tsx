import { useEffect, useMemo, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from '../../router/Router.js';
import { useFieldArray, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Product } from '@bodega/sdk';
import { Field, SelectField } from '../../ui/Field.js';
import { ErrorState, Loading } from '../../ui/States.js';
import { Confirm, PageHead, useResult } from '../ui.js';
import { ALL_PRODUCTS, combinations, productSchema, toForm, type ProductForm as Form } from './product-form.js';
import { VariantRow } from './VariantRow.js';
import { useDeleteProduct, useProductDetail, useSaveProduct, useStoreCollections } from './queries.js';
import { BackInStockPanel } from './BackInStockPanel.js';
import { MediaEditor } from './MediaEditor.js';
import { DigitalFilesPanel } from './DigitalFilesPanel.js';

export default function ProductEditPage() {
  const { productId } = useParams();
  const product = useProductDetail(productId);
  if (productId && product.isPending) return <Loading label="Loading the product…" />;
  if (productId && product.isError) return <><PageHead title="Product" /><ErrorState error={product.error} retry={() => void product.refetch()} /></>;
  return <ProductForm key={productId ?? 'new'} id={productId} before={product.data ?? undefined} />;
}

function ProductForm({ id, before }: { id?: string; before?: Product }) {
  const navigate = useNavigate();
  const { state } = useLocation();
  const collections = useStoreCollections();
  const result = useResult();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const form = useForm<Form>({ resolver: zodResolver(productSchema), defaultValues: toForm(before) });
  const { register, handleSubmit, control, watch, formState: { errors } } = form;
  const options = useFieldArray({ control, name: 'options' });
  const watched = watch('options');
  const trackInventory = watch('trackInventory');
  const discountType = watch('discountType');
  const combos = useMemo(() => combinations(watched ?? []), [JSON.stringify(watched)]);

  const saving = useSaveProduct(id, before);
  const removing = useDeleteProduct();
  const save = (values: Form) => saving.mutate(values, {
    onSuccess: (savedId) => {
      if (!id) navigate(`/admin/products/${savedId}`, { replace: true, state: { created: true } });
      else result.ok('Saved.');
    },
    onError: (error) => result.fail(error),
  });
  useEffect(() => {
    if ((state as { created?: boolean } | null)?.created) result.ok('Product created.');
  }, []);

  return (
    <>
      <p className="small"><Link to="/admin/products">← Products</Link></p>
      <PageHead title={id ? before?.name ?? 'Product' : 'New product'}>
        {id && before?.slug && <a className="button secondary" href={`/products/${before.slug}`} target="_blank" rel="noreferrer">View in shop</a>}
        {id && <button type="button" className="button secondary danger-outline" onClick={() => setConfirmDelete(true)}>Delete</button>}
      </PageHead>
      {result.view}
      <form className="product-form" noValidate onSubmit={(e) => { result.clear(); void handleSubmit(save)(e); }}>
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
          <SelectField label="Type" {...register('productType')}>
            <option value="physical">Physical: shipped or picked up</option><option value="digital">Digital: files to download once paid</option>
          </SelectField>
          <div className="three-cols">
            <Field label="SKU" {...register('sku')} error={errors.sku?.message} />
            <Field label="Weight" inputMode="decimal" {...register('weight')} error={errors.weight?.message} />
            <Field label="Ribbon" hint="A short label such as “New”" {...register('ribbon')} error={errors.ribbon?.message} />
          </div>
          <label className="check"><input type="checkbox" {...register('visible')} /> Visible in the shop</label>
        </section>

        <MediaEditor form={form}
          options={(watched ?? []).map((o) => ({ name: o.name.trim(), choices: [...new Set(o.choices.split(',').map((c) => c.trim()).filter(Boolean))] })).filter((o) => o.name && o.choices.length)} />

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
                  {combos.map((choices) => <VariantRow key={JSON.stringify(choices)} form={form} choices={choices} trackInventory={trackInventory} />)}
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
            {(collections.data ?? []).filter((c) => c._id !== ALL_PRODUCTS).map((c) => (
              <label key={c._id} className="check"><input type="checkbox" value={c._id} {...register('collectionIds')} /> {c.name}</label>
            ))}
          </fieldset>
        </section>
        <div className="form-foot">
          <button type="submit" className="button large" disabled={saving.isPending}>{saving.isPending ? 'Saving…' : id ? 'Save changes' : 'Create product'}</button>
        </div>
      </form>
      {id && before?.productType === 'digital' && <DigitalFilesPanel productId={id} />}
      {id && before && <BackInStockPanel product={before} />}
      <Confirm open={confirmDelete} onOpenChange={setConfirmDelete} title={`Delete ${before?.name ?? 'this product'}?`} confirmLabel="Delete product"
        busy={removing.isPending} error={removing.error} onConfirm={() => removing.mutate(id ?? '', { onSuccess: () => { void navigate('/admin/products', { replace: true }); } })}>
        <p>It disappears from the shop and from every collection. Past orders keep their lines.</p>
      </Confirm>
    </>
  );
}
