import { useRating } from './queries.js';

/** Five stars filled to `value` (0–5); screen readers hear the text alternative instead. */
export function Stars({ value, label }: { value: number; label: string }) {
  const percent = Math.max(0, Math.min(100, (value / 5) * 100));
  return (
    <span className="stars" role="img" aria-label={label}>
      <span className="stars-empty" aria-hidden="true">★★★★★</span>
      <span className="stars-full" aria-hidden="true" style={{ width: `${percent}%` }}>★★★★★</span>
    </span>
  );
}

/** The product's average rating and review count, linking to the reviews below; nothing without reviews. */
export function RatingSummary({ productId }: { productId: string }) {
  const rating = useRating(productId);
  if (!rating.data || rating.data.count === 0) return null;
  const { average, count } = rating.data;
  const reviews = `${count} ${count === 1 ? 'review' : 'reviews'}`;
  return (
    <p className="rating-summary">
      <Stars value={Number(average)} label={`Rated ${average} out of 5`} />
      <a href="#reviews">{average} · {reviews}</a>
    </p>
  );
}
