/** A price, with the list price struck through when the shopper pays less. */
export function Price({ price, was, className }: { price: string; was?: string; className?: string }) {
  return (
    <span className={`price ${className ?? ''}`}>
      {was ? (
        <>
          <span className="price-now"><span className="visually-hidden">Sale price </span>{price}</span>{' '}
          <s className="price-was"><span className="visually-hidden">Regular price </span>{was}</s>
        </>
      ) : price}
    </span>
  );
}
