import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { REVIEW_LIMITS, type Review } from '@bodega/sdk';
import { plainError } from '../shop/errors.js';
import { Field } from '../ui/Field.js';
import { Notice } from '../ui/Notice.js';
import { useSaveReview } from './queries.js';

const schema = z.object({
  rating: z.enum(['1', '2', '3', '4', '5'], { message: 'Choose a rating from 1 to 5 stars' }),
  title: z.string().trim().max(REVIEW_LIMITS.title, `Keep the title under ${REVIEW_LIMITS.title} characters`),
  body: z.string().trim().max(REVIEW_LIMITS.body, `Keep the review under ${REVIEW_LIMITS.body.toLocaleString('en-US')} characters`),
});
type Form = z.infer<typeof schema>;

/** A signed-in member's form to write or edit their review of a product (loaded by Reviews when needed). */
export default function ReviewEditor({ productId, own }: { productId: string; own: Review | null }) {
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
