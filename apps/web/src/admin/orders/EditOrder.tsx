// "Edit order" (before fulfilment): a draft of the placed order — quantities, remove, add a line,
// shipping — with the new total and the difference shown before the change is applied. Applying
// re-prices the order; paid beyond the new total is refunded, a higher total leaves a balance due.
// Also the timeline's note box (a MERCHANT_COMMENT activity).
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { plainError } from '../../shop/errors.js';
import { Notice } from '../../ui/Notice.js';
import { ErrorState, Loading } from '../../ui/States.js';
import { Modal } from '../ui.js';
import { DraftEditor, DraftTotals, draftProblems } from './DraftEditor.js';
import { useAddNote, useCommitDraft, useCreateDraft, useDraftChange, useDraftOrder } from './queries.js';

export function EditOrderDialog({ orderId, number, totalBefore, onClose, onApplied }: {
  orderId: string; number: string; totalBefore: string; onClose: () => void; onApplied: (message: string) => void;
}) {
  const create = useCreateDraft();
  const [draftId, setDraftId] = useState('');
  const { mutate } = create;
  useEffect(() => {
    mutate({ orderId }, { onSuccess: setDraftId });
  }, [mutate, orderId]);
  return (
    <Modal open wide onOpenChange={(open) => { if (!open) onClose(); }} title={`Edit order #${number}`}
      description="Change quantities, remove or add items, or change shipping. Nothing changes on the order until you apply.">
      {create.isError && <Notice kind="error">{plainError(create.error)}</Notice>}
      {!draftId && !create.isError && <Loading label="Preparing the edit…" />}
      {draftId && <EditDraft draftId={draftId} totalBefore={totalBefore} number={number} onApplied={onApplied} />}
    </Modal>
  );
}

function EditDraft({ draftId, totalBefore, number, onApplied }: { draftId: string; totalBefore: string; number: string; onApplied: (message: string) => void }) {
  const draft = useDraftOrder(draftId);
  const change = useDraftChange(draftId);
  const commit = useCommitDraft(draftId);
  if (draft.isPending) return <Loading label="Loading the edit…" />;
  if (draft.isError) return <ErrorState error={draft.error} retry={() => void draft.refetch()} />;
  const problems = draftProblems(draft.data);
  const total = draft.data.draftOrder?.priceSummary?.total?.formattedAmount ?? '';
  return (
    <div className="stack">
      <section className="panel" aria-labelledby="edit-totals-heading">
        <h2 id="edit-totals-heading">After the edit</h2>
        <DraftTotals calculated={draft.data} before={totalBefore} />
        {problems.length > 0 && <Notice kind="error">{problems.join(' ')}</Notice>}
        {commit.isError && <Notice kind="error">{plainError(commit.error)}</Notice>}
        <div className="actions">
          <button type="button" className="button" disabled={change.isPending || commit.isPending}
            onClick={() => commit.mutate(undefined, { onSuccess: () => onApplied(`Order #${number} is edited: the new total is ${total}.`) })}>
            {commit.isPending ? 'Applying…' : 'Apply changes'}
          </button>
        </div>
      </section>
      <DraftEditor draftId={draftId} calculated={draft.data} change={change} />
    </div>
  );
}

const noteSchema = z.object({ message: z.string().trim().min(1, 'Write the note first').max(5000, 'At most 5000 characters') });

/** A note on the order's timeline, seen by staff only. */
export function NoteForm({ orderId }: { orderId: string }) {
  const add = useAddNote(orderId);
  const { register, handleSubmit, reset, formState: { errors } } = useForm<z.infer<typeof noteSchema>>({ resolver: zodResolver(noteSchema), defaultValues: { message: '' } });
  const submit = handleSubmit((f) => add.mutate(f.message, { onSuccess: () => reset({ message: '' }) }));
  return (
    <form className="form-grid note-form" noValidate onSubmit={(e) => void submit(e)}>
      <div className="field">
        <label htmlFor="order-note">Add a note</label>
        <textarea id="order-note" rows={2} maxLength={5000} aria-invalid={errors.message ? true : undefined}
          aria-describedby={errors.message ? 'order-note-error' : undefined} {...register('message')} />
        {errors.message && <p id="order-note-error" className="error">{errors.message.message}</p>}
      </div>
      {add.isError && <Notice kind="error">{plainError(add.error)}</Notice>}
      <div className="actions"><button type="submit" className="button secondary" disabled={add.isPending}>{add.isPending ? 'Adding…' : 'Add note'}</button></div>
    </form>
  );
}
