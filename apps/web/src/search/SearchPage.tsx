import * as Dialog from '@radix-ui/react-dialog';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from '../router/Router.js';
import { ProductCard } from '../storefront/ProductCard.js';
import { useCollections } from '../storefront/queries.js';
import { ErrorState, Loading } from '../ui/States.js';
import { usePageTitle } from '../ui/usePageTitle.js';
import { Facets } from './Facets.js';
import { Highlight } from './Highlight.js';
import { parseSearch, searchUrl, SEARCH_PAGE_SIZE, useCatalogSearch, type SearchParams } from './queries.js';
import './search.css';

const NO_FILTERS = { collections: [], options: {}, prices: [], brands: [], inStock: false, onSale: false } satisfies Partial<SearchParams>;

/** The catalog search: results best first with the matched words marked, facets as filters in the URL. */
export default function SearchPage() {
  const [url] = useSearchParams();
  const navigate = useNavigate();
  const params = parseSearch(url);
  const search = useCatalogSearch(params);
  const collections = useCollections();
  const [drawer, setDrawer] = useState(false);
  const title = params.q ? `Results for “${params.q}”` : 'Search';
  usePageTitle(title);

  // Each pick is a new history entry, so the back button takes it back.
  const update = (patch: Partial<SearchParams>) => navigate(searchUrl({ ...params, page: 1, ...patch }));
  const filtered = params.collections.length + Object.keys(params.options).length + params.prices.length + params.brands.length > 0 || params.inStock || params.onSale;
  const data = search.data;
  const total = data?.metadata.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / SEARCH_PAGE_SIZE));
  // Nothing found and nothing picked: no facets to offer, only the way out.
  const showFacets = total > 0 || filtered;

  return (
    <div className="container listing">
      <div className="page-head">
        <nav aria-label="Breadcrumb" className="breadcrumb"><Link to="/">Home</Link> <span aria-hidden="true">/</span> <span aria-current="page">Search</span></nav>
        <h1>{title}</h1>
        {data && <p className="muted" role="status">{total} {total === 1 ? 'product' : 'products'}</p>}
      </div>
      {search.isPending ? <Loading label="Searching…" lines={4} />
        : search.isError ? <ErrorState error={search.error} retry={() => void search.refetch()} />
          : (
            <div className={showFacets ? 'search-layout' : undefined}>
              {showFacets && (
                <aside className="facets" aria-label="Filters">
                  <Facets facets={data!.facets} params={params} update={update} />
                </aside>
              )}
              <section aria-label="Results">
                {showFacets && <div className="search-toolbar">
                  <Dialog.Root open={drawer} onOpenChange={setDrawer}>
                    <Dialog.Trigger className="button secondary small filters-button">Filters{filtered ? ' (on)' : ''}</Dialog.Trigger>
                    <Dialog.Portal>
                      <Dialog.Overlay className="drawer-overlay" />
                      <Dialog.Content className="drawer facets-drawer" aria-describedby={undefined}>
                        <div className="drawer-head">
                          <Dialog.Title>Filters</Dialog.Title>
                          <Dialog.Close className="icon-button" aria-label="Close filters">
                            <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2"><path d="M6 6l12 12M18 6 6 18" /></svg>
                          </Dialog.Close>
                        </div>
                        <div className="drawer-body"><Facets facets={data!.facets} params={params} update={update} /></div>
                        <div className="drawer-foot">
                          <Dialog.Close className="button block">Show {total} {total === 1 ? 'product' : 'products'}</Dialog.Close>
                        </div>
                      </Dialog.Content>
                    </Dialog.Portal>
                  </Dialog.Root>
                  <div className="sort">
                    <label htmlFor="search-sort">Sort by</label>
                    <select id="search-sort" value={params.sort} onChange={(e) => update({ sort: e.target.value as SearchParams['sort'] })}>
                      <option value="">{params.q ? 'Best match' : 'Name (A–Z)'}</option>
                      <option value="NEWEST">Newest</option>
                      <option value="PRICE_ASC">Price: low to high</option>
                      <option value="PRICE_DESC">Price: high to low</option>
                    </select>
                  </div>
                </div>}
                {filtered && <p><Link to={searchUrl({ ...params, ...NO_FILTERS, page: 1 })} className="clear-link">Clear all filters</Link></p>}
                {data!.items.length === 0 ? (
                  <div className="state">
                    <h2>No products match{params.q ? ` “${params.q}”` : ''}{filtered ? ' with these filters' : ''}</h2>
                    {data!.didYouMean && <p className="did-you-mean">Did you mean <Link to={searchUrl({ ...params, q: data!.didYouMean, page: 1 })}>{data!.didYouMean}</Link>?</p>}
                    {filtered && <p><Link className="button" to={searchUrl({ ...params, ...NO_FILTERS, page: 1 })}>Search without filters</Link></p>}
                    {(collections.data?.length ?? 0) > 0 && (
                      <>
                        <p>Or browse a collection:</p>
                        <ul className="chips" role="list">
                          {collections.data!.map((c) => <li key={c._id}><Link className="chip" to={`/products?collection=${encodeURIComponent(c.slug ?? '')}`}>{c.name}</Link></li>)}
                        </ul>
                      </>
                    )}
                  </div>
                ) : (
                  <ul className="grid" role="list">
                    {data!.items.map((hit, i) => (
                      <ProductCard key={hit.product._id} product={hit.product} eager={i < 3}
                        title={<Highlight parts={hit.nameHighlight} fallback={hit.product.name ?? ''} />} />
                    ))}
                  </ul>
                )}
                {pages > 1 && (
                  <nav className="pagination" aria-label="Pages">
                    {params.page > 1 ? <Link to={searchUrl({ ...params, page: params.page - 1 })} rel="prev">← Previous</Link> : <span />}
                    <span>Page {params.page} of {pages}</span>
                    {params.page < pages ? <Link to={searchUrl({ ...params, page: params.page + 1 })} rel="next">Next →</Link> : <span />}
                  </nav>
                )}
              </section>
            </div>
          )}
    </div>
  );
}
