import type { ReactNode } from 'react';
import { Link } from '../router/Router.js';
import type { Product } from '@bodega/sdk';
import { Price } from '../ui/Price.js';
import { CARD_IMAGE_SIZES, imageSources, inStock, priceOf, productImages } from '../domain/product.js';

/** `title` replaces the plain name (the search marks the words it matched). */
export function ProductCard({ product, eager = false, title }: { product: Product; eager?: boolean; title?: ReactNode }) {
  const image = productImages(product)[0];
  const price = priceOf(product);
  const available = inStock(product);
  return (
    <li className="card">
      <Link to={`/products/${product.slug}`} className="card-link">
        <div className="card-media">
          {image
            ? <img {...imageSources(image, CARD_IMAGE_SIZES)} alt="" width={image.width} height={image.height} loading={eager ? 'eager' : 'lazy'} decoding="async" />
            : <div className="card-placeholder" aria-hidden="true" />}
          {product.ribbon && <span className="ribbon">{product.ribbon}</span>}
          {!available && <span className="ribbon ribbon-muted">Sold out</span>}
        </div>
        <h3 className="card-title">{title ?? product.name}</h3>
      </Link>
      <p className="card-price">
        <Price price={price.price} was={price.was} from={price.from} />
        {!available && <span className="visually-hidden"> – out of stock</span>}
      </p>
    </li>
  );
}

export function ProductGrid({ products, eagerCount = 4 }: { products: Product[]; eagerCount?: number }) {
  return (
    <ul className="grid" role="list">
      {products.map((p, i) => <ProductCard key={p._id} product={p} eager={i < eagerCount} />)}
    </ul>
  );
}
