import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { DIGITAL_RULE_LIMITS, type DigitalFile } from '@bodega/sdk';
import { Field } from '../../ui/Field.js';
import { Notice } from '../../ui/Notice.js';
import { ErrorState, Loading } from '../../ui/States.js';
import { plainError } from '../../shop/errors.js';
import { dateTime } from '../ui.js';
import { describeSize } from '../../ui/bytes.js';
import { useAttachFile, useDigitalProduct, useRemoveFile, useSetDownloadRules } from './queries.js';

const rulesSchema = z.object({
  linkDays: z.coerce.number().int('A whole number of days').min(1, 'At least 1 day').max(DIGITAL_RULE_LIMITS.linkDays, `At most ${DIGITAL_RULE_LIMITS.linkDays} days`),
  maxDownloads: z.coerce.number().int('A whole number').min(1, 'At least 1').max(DIGITAL_RULE_LIMITS.maxDownloads, `At most ${DIGITAL_RULE_LIMITS.maxDownloads}`),
});
type Rules = z.input<typeof rulesSchema>;

/** A digital product's files (upload with progress, remove) and how long and how often its links work. */
export function DigitalFilesPanel({ productId }: { productId: string }) {
  const digital = useDigitalProduct(productId);
  const [progress, setProgress] = useState<number | null>(null);
  const [picked, setPicked] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const attach = useAttachFile(productId, setProgress);
  const remove = useRemoveFile(productId);
  if (digital.isPending) return <section className="panel"><h2>Files to download</h2><Loading label="Loading the files…" /></section>;
  if (digital.isError) return <section className="panel"><h2>Files to download</h2><ErrorState error={digital.error} retry={() => void digital.refetch()} /></section>;
  const { files, maxFileBytes, allowedTypes } = digital.data;

  const upload = (file: File | undefined) => {
    if (!file) return;
    setPicked(file.name);
    setProgress(0);
    attach.mutate(file, {
      onSettled: () => {
        setProgress(null);
        if (input.current) input.current.value = '';
      },
    });
  };

  return (
    <section className="panel" aria-labelledby="digital-heading">
      <h2 id="digital-heading">Files to download</h2>
      <p className="muted small">Buyers get a link to each file by e-mail once the order is paid, and on their account’s Downloads page.</p>
      {files.length === 0 ? <p>No files yet: buyers of this product get nothing to download.</p> : (
        <ul className="file-list" role="list">
          {files.map((f: DigitalFile) => (
            <li key={f.id} className="file-row">
              <span className="card-title truncate">{f.fileName}</span>
              <span className="muted small">{describeSize(f.size)} · {dateTime(f.createdDate)}</span>
              <button type="button" className="button secondary small" disabled={remove.isPending} onClick={() => remove.mutate(f.id)} aria-label={`Remove ${f.fileName}`}>Remove</button>
            </li>
          ))}
        </ul>
      )}
      <div className="field">
        <label htmlFor="digital-file">Add a file</label>
        <input ref={input} id="digital-file" type="file" accept={allowedTypes.join(',')} disabled={attach.isPending}
          aria-describedby="digital-file-hint" onChange={(e) => upload(e.currentTarget.files?.[0])} />
        <p id="digital-file-hint" className="hint">PDF, ZIP, EPUB, audio, video, images or text; at most {Math.round(maxFileBytes / (1024 * 1024))} MB.</p>
      </div>
      <div aria-live="polite">
        {progress !== null && (
          <p><label htmlFor="digital-progress">Uploading {picked}… {Math.round(progress * 100)}%</label> <progress id="digital-progress" max={1} value={progress} /></p>
        )}
        {attach.isError && <Notice kind="error">{plainError(attach.error)}</Notice>}
        {remove.isError && <Notice kind="error">{plainError(remove.error)}</Notice>}
        {attach.isSuccess && progress === null && <Notice kind="success">Uploaded {attach.data.fileName}.</Notice>}
      </div>
      <RulesForm productId={productId} rules={digital.data.rules} />
    </section>
  );
}

function RulesForm({ productId, rules }: { productId: string; rules: { linkDays: number; maxDownloads: number } }) {
  const save = useSetDownloadRules(productId);
  const { register, handleSubmit, formState: { errors } } = useForm<Rules, unknown, z.output<typeof rulesSchema>>({ resolver: zodResolver(rulesSchema), defaultValues: rules });
  return (
    <form className="rules-form" noValidate onSubmit={(e) => void handleSubmit((v) => save.mutate(v))(e)} aria-labelledby="rules-heading">
      <h3 id="rules-heading">Download links</h3>
      <div className="three-cols">
        <Field label="Links work for (days)" inputMode="numeric" {...register('linkDays')} error={errors.linkDays?.message} />
        <Field label="Downloads per file" inputMode="numeric" {...register('maxDownloads')} error={errors.maxDownloads?.message} />
      </div>
      <button type="submit" className="button secondary" disabled={save.isPending}>{save.isPending ? 'Saving…' : 'Save link rules'}</button>
      <div aria-live="polite">
        {save.isError && <Notice kind="error">{plainError(save.error)}</Notice>}
        {save.isSuccess && <Notice kind="success">Link rules saved.</Notice>}
      </div>
    </form>
  );
}
