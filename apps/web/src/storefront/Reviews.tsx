import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useLocation } from '../router/Router.js';
import { z } from 'zod';
import { REVIEW_LIMITS, type Review } from '@bodega/sdk';
import { plainError } from '../shop/errors.js';
import { useCurrentMember, useSignedIn } from '../shop/member.js';
import { Field } from '../ui/Field.js';
import { Notice } from '../ui/Notice.js';
import { Loading } from '../ui/States.js';
import { Stars } from './Rating.js';
import { useOwnReview, useProductReviews, useSaveReview } from './queries.js';

const schema = z.object({
  rating: z.enum(['1', '2', '3', '4', '5'], { message: 'Choose a rating from 1 to 5 stars' }),
  title: z.string().trim().max(REVIEW_LIMITS.title, `Keep the title under ${REVIEW_LIMITS.title} characters`),
  body: z.string().trim().max(REVIEW_LIMITS.body, `Keep the review under ${REVIEW_LIMITS.body.toLocaleString('en-US')} characters`),
});
type Form = z.infer<typeof schema>;

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
  return <ReviewEditor key={own.data?._id ?? 'new'} productId={productId} own={own.data ?? null} />;
}

function ReviewEditor({ productId, own }: { productId: string; own: Review | null }) {
  const save = useSaveReview(productId);
  const { register, handleSubmit, formState: { errors } } = useForm<Form>({
    resolver: zodResolver(schema),
    defaultValues: own
      ? { rating: String(own.content.rating) as Form['rating'], title: own.content.title ?? '', body: own.content.body ?? '' }
      : { rating: undefined, title: '', body: '' },
  });
  const submit = (v: Form) => save.mutate({ reviewId: own?._id, content: { rating: Number(v.rating), title: v.title || null, body: v.body || null } });
  const status = own?.moderation.moderationStatus;
  return (
    <form className="panel review-form" onSubmit={handleSubmit(submit)} noValidate aria-labelledby="review-form-heading">
      <h3 id="review-form-heading">{own ? 'Edit your review' : 'Write a review'}</h3>
      {status === 'REJECTED' && <p className="muted">The store did not publish your review.</p>}
      <fieldset className="rating-input" aria-describedby={errors.rating ? 'rating-error' : undefined}>
        <legend>Rating</legend>
        {(['1', '2', '3', '4', '5'] as const).map((n) => (
          <label key={n}>
            <input type="radio" value={n} {...register('rating')} aria-invalid={errors.rating ? true : undefined} />
            <span>{n} {n === '1' ? 'star' : 'stars'}</span>
          </label>
        ))}
        {errors.rating && <p id="rating-error" className="error">{errors.rating.message}</p>}
      </fieldset>
      <Field label="Title" {...register('title')} error={errors.title?.message} />
      <div className="field">
        <label htmlFor="review-body">Your review</label>
        <textarea id="review-body" rows={4} {...register('body')} aria-invalid={errors.body ? true : undefined} aria-describedby={errors.body ? 'review-body-error' : undefined} />
        {errors.body && <p id="review-body-error" className="error">{errors.body.message}</p>}
      </div>
      <div className="actions">
        <button type="submit" className="button" disabled={save.isPending}>{save.isPending ? 'Saving…' : own ? 'Save your review' : 'Post review'}</button>
      </div>
      {save.isSuccess && <Notice kind="success">Thanks! Your review is saved.</Notice>}
      {save.isError && <Notice kind="error">{plainError(save.error)}</Notice>}
    </form>
  );
}
