import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { REVIEW_LIMITS, type Review, type ReviewModerationStatus } from '@bodega/sdk';
import { Notice } from '../../ui/Notice.js';
import { plainError } from '../../shop/errors.js';
import { actionsColumn, ListTable } from '../ListTable.js';
import { CursorPager, dateTime, Modal, PageHead, Status, useResult } from '../ui.js';
import { useAdminReviews, useProductNames, useReviewAction } from './queries.js';

const replySchema = z.object({ message: z.string().trim().min(1, 'Write the reply').max(REVIEW_LIMITS.reply, `Keep the reply under ${REVIEW_LIMITS.reply.toLocaleString('en-US')} characters`) });
type ReplyForm = z.infer<typeof replySchema>;

const STATUSES: { value: ReviewModerationStatus | ''; label: string }[] = [
  { value: '', label: 'Any' }, { value: 'APPROVED', label: 'Approved' }, { value: 'IN_MODERATION', label: 'Pending' }, { value: 'REJECTED', label: 'Rejected' },
];

const titleOf = (r: Review) => r.content.title || (r.content.body ?? '').slice(0, 60) || 'Review';

/** Every review of the store: filter by status, approve or reject, reply. */
export default function ReviewsPage() {
  const [status, setStatus] = useState<ReviewModerationStatus | ''>('');
  const [cursors, setCursors] = useState<string[]>([]);
  const reviews = useAdminReviews(status, cursors.at(-1));
  const list = reviews.data?.reviews;
  const names = useProductNames(list?.map((r) => r.entityId) ?? []);
  const act = useReviewAction();
  const result = useResult();
  const [replying, setReplying] = useState<Review | null>(null);

  function moderate(r: Review, next: 'APPROVED' | 'REJECTED') {
    result.clear();
    act.mutate({ kind: 'moderate', reviewId: r._id, status: next }, {
      onSuccess: () => result.ok(`“${titleOf(r)}” is ${next === 'APPROVED' ? 'approved: the shop shows it' : 'rejected: the shop no longer shows it'}.`),
      onError: (error) => result.fail(error),
    });
  }

  return (
    <>
      <PageHead title="Reviews" lead="What customers say about your products. Rejected reviews leave the shop and its ratings." />
      {result.view}
      <div className="filters-bar">
        <div className="filter">
          <label htmlFor="review-status">Status</label>
          <select id="review-status" value={status} onChange={(e) => { setStatus(e.target.value as ReviewModerationStatus | ''); setCursors([]); }}>
            {STATUSES.map((s) => <option key={s.value} value={s.value}>{s.label}</option>)}
          </select>
        </div>
      </div>
      <ListTable query={reviews} items={list} caption="Reviews" loading="Loading reviews…"
        empty={status ? 'No reviews with this status.' : 'No reviews yet. Signed-in customers review products on their pages.'}
        columns={[{ label: 'Review' }, { label: 'Product' }, { label: 'Rating' }, { label: 'Status' }, { label: 'Written' }, actionsColumn]}
        row={(r) => (
          <tr key={r._id}>
            <td className="card-title">
              <strong>{titleOf(r)}</strong>
              {r.content.body && <span className="block small review-text">{r.content.body}</span>}
              <span className="block muted small">{r.author.authorName ?? 'A customer'}{r.verified ? ' · Verified buyer' : ''}</span>
              {r.reply && <span className="block small"><strong>Your reply:</strong> {r.reply.message}</span>}
            </td>
            <td data-label="Product">{names.data?.get(r.entityId) ?? r.entityId}</td>
            <td data-label="Rating">{r.content.rating} / 5</td>
            <td data-label="Status"><Status value={r.moderation.moderationStatus} /></td>
            <td data-label="Written">{dateTime(r._createdDate)}</td>
            <td className="row-actions">
              {r.moderation.moderationStatus !== 'APPROVED' && <button type="button" className="button small" disabled={act.isPending} onClick={() => moderate(r, 'APPROVED')}>Approve<span className="visually-hidden"> “{titleOf(r)}”</span></button>}
              {r.moderation.moderationStatus !== 'REJECTED' && <button type="button" className="button secondary small" disabled={act.isPending} onClick={() => moderate(r, 'REJECTED')}>Reject<span className="visually-hidden"> “{titleOf(r)}”</span></button>}
              <button type="button" className="button secondary small" onClick={() => { result.clear(); setReplying(r); }}>{r.reply ? 'Edit reply' : 'Reply'}<span className="visually-hidden"> to “{titleOf(r)}”</span></button>
            </td>
          </tr>
        )} />
      {reviews.data && <CursorPager cursors={cursors} nextCursor={reviews.data.metadata.cursors.next} onCursors={setCursors} label="Reviews" />}
      <Modal open={replying !== null} onOpenChange={(o) => { if (!o) setReplying(null); }} title={replying?.reply ? 'Edit your reply' : 'Reply to the review'} description={replying ? `“${titleOf(replying)}” by ${replying.author.authorName ?? 'a customer'}` : undefined}>
        {replying && <ReplyEditor key={replying._id} review={replying} onDone={(text) => { setReplying(null); result.ok(text); }} />}
      </Modal>
    </>
  );
}

function ReplyEditor({ review, onDone }: { review: Review; onDone: (text: string) => void }) {
  const act = useReviewAction();
  const { register, handleSubmit, formState: { errors } } = useForm<ReplyForm>({ resolver: zodResolver(replySchema), defaultValues: { message: review.reply?.message ?? '' } });
  const send = (v: ReplyForm) => act.mutate({ kind: 'reply', reviewId: review._id, message: v.message }, { onSuccess: () => onDone('Your reply is published under the review.') });
  return (
    <form className="form-grid" onSubmit={handleSubmit(send)} noValidate>
      <div className="field">
        <label htmlFor="reply-message">Reply</label>
        <textarea id="reply-message" rows={5} {...register('message')} aria-invalid={errors.message ? true : undefined} aria-describedby={errors.message ? 'reply-message-error' : undefined} />
        {errors.message && <p id="reply-message-error" className="error">{errors.message.message}</p>}
      </div>
      {act.isError && <Notice kind="error">{plainError(act.error)}</Notice>}
      <div className="actions modal-actions">
        <button type="submit" className="button" disabled={act.isPending}>{act.isPending ? 'Publishing…' : 'Publish reply'}</button>
        {review.reply && <button type="button" className="button secondary" disabled={act.isPending} onClick={() => act.mutate({ kind: 'remove-reply', reviewId: review._id }, { onSuccess: () => onDone('Your reply is removed.') })}>Remove reply</button>}
      </div>
    </form>
  );
}
