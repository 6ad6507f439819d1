import { useEffect, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from '../router/Router.js';
import { EmptyState, ErrorState, Loading } from '../ui/States.js';
import { usePageTitle } from '../ui/usePageTitle.js';
import { ProductGrid } from './ProductCard.js';
import { PAGE_SIZE, parseListing, useCollections, useListing, type ListingParams } from './queries.js';

function toSearch(params: ListingParams): string {
  const s = new URLSearchParams();
  if (params.q) s.set('q', params.q);
  if (params.collection) s.set('collection', params.collection);
  if (params.minPrice !== undefined) s.set('minPrice', String(params.minPrice));
  if (params.maxPrice !== undefined) s.set('maxPrice', String(params.maxPrice));
  if (params.sort) s.set('sort', params.sort);
  if (params.page > 1) s.set('page', String(params.page));
  const text = s.toString();
  return text ? `?${text}` : '';
}

export default function ListingPage() {
  const [search, setSearch] = useSearchParams();
  const params = parseListing(search);
  const listing = useListing(params);
  const collections = useCollections();
  const title = listing.data?.collectionName ?? (params.q ? `Results for “${params.q}”` : 'All products');
  usePageTitle(title);

  const [min, setMin] = useState(params.minPrice?.toString() ?? '');
  const [max, setMax] = useState(params.maxPrice?.toString() ?? '');
  useEffect(() => { setMin(params.minPrice?.toString() ?? ''); setMax(params.maxPrice?.toString() ?? ''); }, [params.minPrice, params.maxPrice]);

  const update = (patch: Partial<ListingParams>) => setSearch(toSearch({ ...params, page: 1, ...patch }));
  function applyPrice(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const n = (v: string) => (v.trim() === '' || !Number.isFinite(Number(v)) ? undefined : Math.max(0, Number(v)));
    update({ minPrice: n(min), maxPrice: n(max) });
  }

  const total = listing.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const filtered = params.q || params.collection || params.minPrice !== undefined || params.maxPrice !== undefined;

  return (
    <div className="container listing">
      <div className="page-head">
        <nav aria-label="Breadcrumb" className="breadcrumb"><Link to="/">Home</Link> <span aria-hidden="true">/</span> <span aria-current="page">Shop</span></nav>
        <h1>{title}</h1>
        {listing.data && <p className="muted" role="status">{total} {total === 1 ? 'product' : 'products'}</p>}
      </div>
      <div className="listing-layout">
        <aside className="filters" aria-label="Filters">
          <h2 className="filters-title">Collections</h2>
          <ul className="filter-list" role="list">
            <li><Link to={toSearch({ ...params, collection: '', page: 1 }) || '/products'} aria-current={!params.collection ? 'true' : undefined}>All products</Link></li>
            {collections.data?.map((c) => (
              <li key={c._id}><Link to={toSearch({ ...params, collection: c.slug ?? '', page: 1 })} aria-current={params.collection === c.slug ? 'true' : undefined}>{c.name}</Link></li>
            ))}
          </ul>
          <form className="price-filter" onSubmit={applyPrice} aria-labelledby="price-heading">
            <h2 className="filters-title" id="price-heading">Price</h2>
            <div className="price-inputs">
              <div className="field"><label htmlFor="min-price">Min</label><input id="min-price" inputMode="decimal" value={min} onChange={(e) => setMin(e.target.value)} placeholder="0" /></div>
              <div className="field"><label htmlFor="max-price">Max</label><input id="max-price" inputMode="decimal" value={max} onChange={(e) => setMax(e.target.value)} placeholder="Any" /></div>
            </div>
            <button type="submit" className="button secondary small">Apply price</button>
          </form>
          {filtered && <p><Link to="/products" className="clear-link">Clear all filters</Link></p>}
        </aside>
        <section className="results" aria-label="Products">
          <div className="toolbar">
            <label htmlFor="sort">Sort by</label>
            <select id="sort" value={params.sort} onChange={(e) => update({ sort: e.target.value as ListingParams['sort'] })}>
              <option value="">Name (A–Z)</option>
              <option value="newest">Newest</option>
              <option value="price_asc">Price: low to high</option>
              <option value="price_desc">Price: high to low</option>
            </select>
          </div>
          {listing.isPending ? <Loading label="Loading products…" lines={4} />
            : listing.isError ? <ErrorState error={listing.error} retry={() => void listing.refetch()} />
              : listing.data.unknownCollection ? <EmptyState title="This collection does not exist" action={{ to: '/products', label: 'See all products' }} />
                : listing.data.products.length === 0 ? <EmptyState title="No products match" action={{ to: '/products', label: 'Clear filters' }}><p>Try a different search or a wider price range.</p></EmptyState>
                  : <ProductGrid products={listing.data.products} />}
          {pages > 1 && (
            <nav className="pagination" aria-label="Pages">
              {params.page > 1 ? <Link to={toSearch({ ...params, page: params.page - 1 }) || '/products'} rel="prev">← Previous</Link> : <span />}
              <span>Page {params.page} of {pages}</span>
              {params.page < pages ? <Link to={toSearch({ ...params, page: params.page + 1 })} rel="next">Next →</Link> : <span />}
            </nav>
          )}
        </section>
      </div>
    </div>
  );
}
