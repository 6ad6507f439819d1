/**
 * A price, with the list price struck through when the shopper pays less; "From $X" when the
 * product's variants cost different amounts and none is chosen yet.
 */
export function Price({ price, was, from, className }: { price: string; was?: string; from?: boolean; className?: string }) {
  return (
    <span className={`price ${className ?? ''}`}>
      {from ? <>From {price}</> : was ? (
        <>
          <span className="price-now"><span className="visually-hidden">Sale price </span>{price}</span>{' '}
          <s className="price-was"><span className="visually-hidden">Regular price </span>{was}</s>
        </>
      ) : price}
    </span>
  );
}
