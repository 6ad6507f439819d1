import { useState } from 'react';
import { Link, useSearchParams } from '../../router/Router.js';
import type { Product, StockFilter } from '@bodega/sdk';
import { ListTable } from '../ListTable.js';
import { SearchForm } from '../SearchForm.js';
import { PageHead, Pager, Status, useMoney } from '../ui.js';
import { BulkEdit } from './BulkEdit.js';
import { PRODUCTS_PAGE_SIZE as LIMIT, useProducts, useStoreCollections } from './queries.js';
const SORTS: Record<string, { fieldName: string; order: 'ASC' | 'DESC'; label: string }> = {
  updated: { fieldName: 'lastUpdated', order: 'DESC', label: 'Recently changed' },
  name: { fieldName: 'name', order: 'ASC', label: 'Name A–Z' },
  price_asc: { fieldName: 'price', order: 'ASC', label: 'Price, low to high' },
  price_desc: { fieldName: 'price', order: 'DESC', label: 'Price, high to low' },
  created: { fieldName: 'createdDate', order: 'DESC', label: 'Newest' },
};

const STOCK_FILTERS: { value: StockFilter; label: string }[] = [
  { value: 'IN_STOCK', label: 'In stock' },
  { value: 'OUT_OF_STOCK', label: 'Out of stock' },
  { value: 'LOW_STOCK', label: 'Low stock (≤ 5)' },
];

export function stockText(p: Product): string {
  const stock = p.stock;
  if (stock?.inStock === false) return 'Out of stock';
  const partly = stock?.inventoryStatus === 'PARTIALLY_OUT_OF_STOCK' ? ', some variants out' : '';
  if (stock?.trackInventory) return `${stock.quantity ?? 0} in stock${partly}`;
  return `In stock${partly}`;
}

export default function ProductsPage() {
  const money = useMoney();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const collection = params.get('collection') ?? '';
  const visibility = params.get('visibility') ?? '';
  const stock = STOCK_FILTERS.find((f) => f.value === params.get('stock'))?.value ?? '';
  const sortKey = params.get('sort') && SORTS[params.get('sort') ?? ''] ? params.get('sort')! : 'updated';
  const offset = Math.max(0, Number(params.get('offset')) || 0);
  const collections = useStoreCollections();
  const filter: Record<string, unknown> = {};
  if (collection) filter.collectionIds = { $hasSome: [collection] };
  if (visibility) filter.visible = visibility === 'visible';
  const sort = SORTS[sortKey];
  const products = useProducts(
    // A search is ranked by relevance unless a sort was picked; it goes through the catalog search.
    { filter, ...(!q || params.get('sort') ? { sort: [{ fieldName: sort.fieldName, order: sort.order }] } : {}), paging: { limit: LIMIT, offset } },
    { ...(stock && { stock }), ...(q && { text: q }) },
  );
  const [selected, setSelected] = useState<Set<string>>(new Set());
  // The products being edited, fixed when the dialog opens (the selection clears once they are done).
  const [bulkIds, setBulkIds] = useState<string[] | null>(null);
  const list = products.data?.products ?? [];

  function set(changes: Record<string, string>) {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) { if (v) next.set(k, v); else next.delete(k); }
    if (!('offset' in changes)) next.delete('offset');
    setParams(next, { replace: true });
  }
  function toggle(id: string) {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id); else next.add(id);
    setSelected(next);
  }
  const allOnPage = list.length > 0 && list.every((p) => selected.has(p._id));
  return (
    <>
      <PageHead title="Products">
        <Link className="button secondary" to="/admin/products/collections">Collections</Link>
        <Link className="button" to="/admin/products/new">New product</Link>
      </PageHead>
      <div className="filters-bar" role="search" aria-label="Filter products">
        <SearchForm id="product-q" label="Name starts with" value={q} onSearch={(text) => set({ q: text })} />
        <div className="filter">
          <label htmlFor="product-collection">Collection</label>
          <select id="product-collection" value={collection} onChange={(e) => set({ collection: e.target.value })}>
            <option value="">All</option>
            {(collections.data ?? []).map((c) => <option key={c._id} value={c._id}>{c.name}</option>)}
          </select>
        </div>
        <div className="filter">
          <label htmlFor="product-visibility">Visibility</label>
          <select id="product-visibility" value={visibility} onChange={(e) => set({ visibility: e.target.value })}>
            <option value="">Any</option><option value="visible">Visible</option><option value="hidden">Hidden</option>
          </select>
        </div>
        <div className="filter">
          <label htmlFor="product-stock">Stock</label>
          <select id="product-stock" value={stock} onChange={(e) => set({ stock: e.target.value })}>
            <option value="">Any</option>
            {STOCK_FILTERS.map((f) => <option key={f.value} value={f.value}>{f.label}</option>)}
          </select>
        </div>
        <div className="filter">
          <label htmlFor="product-sort">Sort by</label>
          <select id="product-sort" value={sortKey} onChange={(e) => set({ sort: e.target.value })}>
            {Object.entries(SORTS).map(([k, s]) => <option key={k} value={k}>{s.label}</option>)}
          </select>
        </div>
      </div>
      <div className="bulk-bar" aria-live="polite">
        <span>{selected.size === 0 ? 'Select products to edit several at once.' : `${selected.size} selected`}</span>
        <button type="button" className="button small" disabled={selected.size === 0} onClick={() => setBulkIds([...selected])}>Bulk edit</button>
        {selected.size > 0 && <button type="button" className="link" onClick={() => setSelected(new Set())}>Clear selection</button>}
      </div>
      <ListTable query={products} items={products.data?.products} caption="Products" loading="Loading products…" empty="No products match."
        columns={[
          {
            className: 'select-col',
            label: <label className="select-all"><input type="checkbox" checked={allOnPage}
              onChange={() => { const next = new Set(selected); for (const p of list) { if (allOnPage) next.delete(p._id); else next.add(p._id); } setSelected(next); }} />
              <span className="select-all-text">Select every product on this page</span></label>,
          },
          { label: 'Product' }, { label: 'SKU' }, { label: 'Stock' }, { label: 'Visibility' }, { label: 'Price', className: 'num' },
        ]}
        row={(p) => {
          const image = p.media.mainMedia?.image.url;
          return (
            <tr key={p._id} className={selected.has(p._id) ? 'selected' : ''}>
              <td className="select-col"><input type="checkbox" aria-label={`Select ${p.name}`} checked={selected.has(p._id)} onChange={() => toggle(p._id)} /></td>
              <td className="card-title">
                <span className="product-cell">
                  {image ? <img src={image} alt="" width={40} height={40} /> : <span className="thumb" aria-hidden="true" />}
                  <span><Link to={`/admin/products/${p._id}`}>{p.name}</Link>{p.ribbon && <span className="block muted small">{p.ribbon}</span>}</span>
                </span>
              </td>
              <td data-label="SKU">{p.sku}</td>
              <td data-label="Stock"><span>{stockText(p)}{p.manageVariants && <span className="block muted small">{p.variants?.length ?? 0} variants</span>}</span></td>
              <td data-label="Visibility">{p.visible === false ? <Status value="HIDDEN" /> : <Status value="VISIBLE" />}</td>
              <td className="num" data-label="Price">{money(p.priceData?.price)}</td>
            </tr>
          );
        }} />
      {products.data && <Pager label="Products" offset={offset} limit={LIMIT} total={products.data.metadata.total} count={list.length} onOffset={(o) => set({ offset: String(o) })} />}
      {bulkIds && <BulkEdit open onOpenChange={(o) => { if (!o) setBulkIds(null); }} products={list.filter((p) => bulkIds.includes(p._id))} ids={bulkIds} onDone={() => setSelected(new Set())} />}
    </>
  );
}
