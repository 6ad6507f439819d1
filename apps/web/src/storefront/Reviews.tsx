import { lazy, Suspense } from 'react';
import { Link, useLocation } from '../router/Router.js';
import type { Review } from '@bodega/sdk';
import { plainError } from '../shop/errors.js';
import { useCurrentMember, useSignedIn } from '../shop/member.js';
import { Notice } from '../ui/Notice.js';
import { Loading } from '../ui/States.js';
import { Stars } from './Rating.js';
import { useOwnReview, useProductReviews } from './queries.js';

// The form (react-hook-form and zod, ~40 KB gzip) is a bundle of its own, fetched only for a
// signed-in member: a visitor's product page never loads it.
const ReviewEditor = lazy(() => import('./ReviewEditor.js'));

const dateFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' });

/** The product's approved reviews, and the signed-in member's form to write or edit theirs. */
export default function Reviews({ productId }: { productId: string }) {
  const list = useProductReviews(productId);
  return (
    <section id="reviews" className="reviews" aria-labelledby="reviews-heading">
      <h2 id="reviews-heading">Reviews</h2>
      <ReviewForm productId={productId} />
      {list.isPending ? <Loading label="Loading reviews…" lines={2} />
        : list.isError ? <Notice kind="error">{plainError(list.error)}</Notice>
        : list.data.length === 0 ? <p className="muted">No reviews yet.</p>
        : <ul className="review-list" role="list">{list.data.map((r) => <ReviewItem key={r._id} review={r} />)}</ul>}
    </section>
  );
}

function ReviewItem({ review }: { review: Review }) {
  const { content, author, reply } = review;
  return (
    <li className="review">
      <article aria-label={content.title || `Review by ${author.authorName ?? 'a customer'}`}>
        <Stars value={content.rating} label={`${content.rating} out of 5 stars`} />
        {content.title && <h3>{content.title}</h3>}
        {content.body && <p className="review-body">{content.body}</p>}
        <p className="review-meta muted">
          {author.authorName ?? 'A customer'} · <time dateTime={new Date(review._createdDate).toISOString()}>{dateFormat.format(new Date(review._createdDate))}</time>
          {review.verified && <> · <span className="verified">Verified buyer</span></>}
        </p>
        {reply && (
          <div className="review-reply">
            <p><strong>Reply from the store</strong></p>
            <p>{reply.message}</p>
          </div>
        )}
      </article>
    </li>
  );
}

function ReviewForm({ productId }: { productId: string }) {
  const signedIn = useSignedIn();
  const { pathname } = useLocation();
  const member = useCurrentMember();
  const memberId = member.data?._id ?? undefined;
  const own = useOwnReview(productId, memberId);
  if (!signedIn) return <p><Link to={`/auth/sign-in?returnTo=${encodeURIComponent(pathname)}`}>Sign in to write a review</Link></p>;
  if (!memberId || own.isPending) return null;
  return <Suspense fallback={null}><ReviewEditor key={own.data?._id ?? 'new'} productId={productId} own={own.data ?? null} /></Suspense>;
}
