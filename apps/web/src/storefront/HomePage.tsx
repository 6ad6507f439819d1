import { Link } from '../router/Router.js';
import { useShop } from '../shop/context.js';
import { ErrorState, Loading } from '../ui/States.js';
import { usePageTitle } from '../ui/usePageTitle.js';
import { ProductGrid } from './ProductCard.js';
import { imageSources, PRODUCT_IMAGE_SIZES, productImages } from '../domain/product.js';
import { useCollections, useFeatured } from './queries.js';

export default function HomePage() {
  const { site } = useShop();
  usePageTitle('Home');
  const featured = useFeatured();
  const collections = useCollections();
  const hero = featured.data?.[0];
  const heroImage = hero ? productImages(hero)[0] : undefined;
  return (
    <>
      <section className="hero">
        <div className="container hero-row">
          <div className="hero-text">
            <p className="eyebrow">New this season</p>
            <h1>Everyday goods, made to last.</h1>
            <p className="lead">Thoughtfully sourced clothing, kitchen things and coffee from {site.name}. Free shipping on larger orders, easy returns.</p>
            <p className="hero-actions">
              <Link className="button" to="/products">Shop all products</Link>
              {collections.data?.[0] && <Link className="button secondary" to={`/products?collection=${collections.data[0].slug}`}>Browse {collections.data[0].name}</Link>}
            </p>
          </div>
          {heroImage && hero && (
            <Link to={`/products/${hero.slug}`} className="hero-media" aria-label={hero.name}>
              <img {...imageSources(heroImage, PRODUCT_IMAGE_SIZES)} alt="" width={heroImage.width} height={heroImage.height} fetchPriority="high" />
            </Link>
          )}
        </div>
      </section>

      {collections.data && collections.data.length > 0 && (
        <section className="container section" aria-labelledby="collections-heading">
          <h2 id="collections-heading">Shop by collection</h2>
          <ul className="collections" role="list">
            {collections.data.map((c) => (
              <li key={c._id}>
                <Link to={`/products?collection=${c.slug}`} className="collection-tile">
                  <span className="collection-name">{c.name}</span>
                  {c.description && <span className="collection-description">{c.description}</span>}
                  <span className="collection-count">{c.numberOfProducts ?? 0} products</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}

      <section className="container section" aria-labelledby="featured-heading">
        <div className="section-head">
          <h2 id="featured-heading">Just in</h2>
          <Link to="/products?sort=newest">See everything new</Link>
        </div>
        {featured.isPending ? <Loading label="Loading products…" /> : featured.isError ? <ErrorState error={featured.error} retry={() => void featured.refetch()} /> : <ProductGrid products={featured.data} />}
      </section>

      <section className="container section promises" aria-label="Why shop with us">
        <div><h2>Free shipping</h2><p>On domestic orders over the threshold shown at checkout.</p></div>
        <div><h2>Pick up in store</h2><p>Choose pickup at checkout and collect when it suits you.</p></div>
        <div><h2>Secure checkout</h2><p>Totals are always confirmed by the store before you pay.</p></div>
      </section>
    </>
  );
}
