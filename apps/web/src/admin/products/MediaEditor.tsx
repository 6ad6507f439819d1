import { useId, useRef, useState, type DragEvent } from 'react';
import { useFieldArray, type UseFormReturn } from 'react-hook-form';
import { PRODUCT_LIMITS } from '@bodega/sdk';
import { imageSources } from '../../domain/product.js';
import { plainError } from '../../shop/errors.js';
import { choiceKey, type MediaEntry } from './media.js';
import type { ProductForm } from './product-form.js';
import { useUploadMedia } from './queries.js';

const ACCEPT = 'image/jpeg,image/png,image/webp,image/avif,image/gif';
const MAX_MB = 20;

interface Upload { id: number; name: string; sent: number; error?: string }

/**
 * The product's pictures: upload (drop or pick, several at once, each with its progress), order
 * (drag, or the move buttons from the keyboard; the first is the main picture), alt text, remove,
 * a picture per option choice, and an outside address as an advanced option. The pictures are the
 * product form's `media` (react-hook-form), their alt texts checked by its schema.
 */
export function MediaEditor({ form, options }: { form: UseFormReturn<ProductForm>; options: { name: string; choices: string[] }[] }) {
  const { control, register, getValues, setValue, watch, formState: { errors } } = form;
  const pictures = useFieldArray({ control, name: 'media.items' });
  const items = watch('media.items');
  const choiceOf = watch('media.choices');
  const upload = useUploadMedia();
  const picker = useRef<HTMLInputElement>(null);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [dragging, setDragging] = useState<number | null>(null);
  const [over, setOver] = useState(false);
  const [address, setAddress] = useState('');
  const [addressError, setAddressError] = useState('');
  const [said, setSaid] = useState('');
  const hintId = useId();

  const add = (entry: MediaEntry, message: string) => {
    if (getValues('media.items').some((m) => m.url === entry.url)) return;
    pictures.append(entry);
    setSaid(message);
  };
  const remove = (i: number) => {
    // A choice keeps no picture that is gone.
    const kept = new Set(getValues('media.items').filter((_, j) => j !== i).map((m) => m.url));
    setValue('media.choices', Object.fromEntries(Object.entries(getValues('media.choices')).filter(([, url]) => kept.has(url))));
    pictures.remove(i);
    setSaid(`Picture ${i + 1} removed.`);
  };
  const move = (from: number, to: number) => {
    const count = getValues('media.items').length;
    if (from === to || to < 0 || to >= count) return;
    pictures.move(from, to);
    setSaid(`Picture moved to position ${to + 1} of ${count}${to === 0 ? ', the main picture' : ''}.`);
  };

  const counter = useRef(0);
  async function send(files: File[]) {
    const started = files.map((file) => ({ file, id: ++counter.current }));
    setUploads((u) => [...u, ...started.map(({ file, id }) => ({ id, name: file.name, sent: 0 }))]);
    await Promise.all(started.map(async ({ file, id }) => {
      const update = (change: Partial<Upload>) => setUploads((u) => u.map((x) => (x.id === id ? { ...x, ...change } : x)));
      if (file.size > MAX_MB * 1024 * 1024) return update({ error: `${file.name} is larger than ${MAX_MB} MB.` });
      try {
        const media = await upload.mutateAsync({ file, onProgress: (sent) => update({ sent }) });
        const url = new URL(media.url, window.location.origin).pathname;
        add({ url, width: media.width, height: media.height, altText: '' }, `${file.name} uploaded.`);
        setUploads((u) => u.filter((x) => x.id !== id));
      } catch (error) {
        update({ error: `${file.name}: ${plainError(error)}` });
      }
    }));
  }

  function drop(e: DragEvent) {
    e.preventDefault();
    setOver(false);
    if (dragging === null && e.dataTransfer.files.length) void send([...e.dataTransfer.files]);
  }

  function addAddress() {
    const url = address.trim();
    if (!/^https?:\/\/\S+$/.test(url)) return setAddressError('Enter an http(s) address.');
    setAddressError('');
    setAddress('');
    add({ url, altText: '' }, 'Picture added.');
  }

  const choices = options.flatMap((o) => o.choices.map((c) => ({ option: o.name, choice: c })));
  return (
    <section className="panel" aria-labelledby="images">
      <h2 id="images">Pictures</h2>
      <div className={`dropzone${over ? ' over' : ''}`} onDragOver={(e) => { e.preventDefault(); if (dragging === null) setOver(true); }} onDragLeave={() => setOver(false)} onDrop={drop}>
        <p>Drop pictures here, or</p>
        <button type="button" className="button secondary" aria-describedby={hintId} onClick={() => picker.current?.click()}>Choose pictures</button>
        <input ref={picker} type="file" accept={ACCEPT} multiple hidden aria-label="Pictures to upload"
          onChange={(e) => { void send([...(e.target.files ?? [])]); e.target.value = ''; }} />
        <p id={hintId} className="hint">JPEG, PNG, WebP, AVIF or GIF, up to {MAX_MB} MB each. The first picture is the main one.</p>
      </div>
      {uploads.length > 0 && (
        <ul className="uploads" aria-label="Uploads">
          {uploads.map((u) => (
            <li key={u.id}>
              {u.error
                ? <p className="error" role="alert">{u.error} <button type="button" className="link" onClick={() => setUploads((x) => x.filter((y) => y.id !== u.id))}>Dismiss</button></p>
                : <label>{u.name} <progress max={1} value={u.sent} /></label>}
            </li>
          ))}
        </ul>
      )}
      <p className="visually-hidden" aria-live="polite">{said}</p>
      {pictures.fields.length > 0 && (
        <ol className="media-list" aria-label="Pictures, in order">
          {pictures.fields.map((m, i) => {
            const n = i + 1;
            const altError = errors.media?.items?.[i]?.altText?.message;
            const altErrorId = `picture-${m.id}-alt-error`;
            return (
              <li key={m.id} draggable onDragStart={() => setDragging(i)} onDragEnd={() => setDragging(null)}
                onDragOver={(e) => e.preventDefault()} onDrop={(e) => { e.preventDefault(); e.stopPropagation(); if (dragging !== null) move(dragging, i); setDragging(null); }}
                className={dragging === i ? 'dragging' : undefined}>
                <img {...imageSources({ url: m.url, ...(m.width && { width: m.width }) }, '96px')} alt="" width={96} height={96} />
                <div className="media-fields">
                  <p className="small">{i === 0 ? <strong>Main picture</strong> : `Picture ${n}`}{m.width && m.height ? <span className="muted"> · {m.width}×{m.height}</span> : null}</p>
                  <label className="field">
                    <span>Alt text of picture {n}</span>
                    <input maxLength={PRODUCT_LIMITS.altText} placeholder="What the picture shows" aria-invalid={altError ? true : undefined}
                      aria-describedby={altError ? altErrorId : undefined} {...register(`media.items.${i}.altText`)} />
                  </label>
                  {altError && <p id={altErrorId} className="error">{altError}</p>}
                </div>
                <div className="media-actions" role="group" aria-label={`Picture ${n}`}>
                  {i > 0 && <button type="button" className="button secondary small" onClick={() => move(i, 0)}>Make main picture</button>}
                  <button type="button" className="button secondary small" disabled={i === 0} onClick={() => move(i, i - 1)} aria-label={`Move picture ${n} earlier`}>↑</button>
                  <button type="button" className="button secondary small" disabled={i === pictures.fields.length - 1} onClick={() => move(i, i + 1)} aria-label={`Move picture ${n} later`}>↓</button>
                  <button type="button" className="link danger" onClick={() => remove(i)}>Remove picture {n}</button>
                </div>
              </li>
            );
          })}
        </ol>
      )}
      {items.length > 0 && choices.length > 0 && (
        <fieldset className="choice-pictures">
          <legend>Picture of each choice</legend>
          <p className="hint">Shown when a shopper picks the choice.</p>
          {choices.map((c) => {
            const key = choiceKey(c.option, c.choice);
            return (
              <label key={key} className="field">
                <span>{c.option}: {c.choice}</span>
                <select value={choiceOf[key] ?? ''} onChange={(e) => setValue('media.choices', { ...getValues('media.choices'), [key]: e.target.value }, { shouldDirty: true })}>
                  <option value="">No picture of its own</option>
                  {items.map((m, i) => <option key={m.url} value={m.url}>Picture {i + 1}{m.altText ? `: ${m.altText}` : ''}</option>)}
                </select>
              </label>
            );
          })}
        </fieldset>
      )}
      <details>
        <summary>Add a picture by its address</summary>
        <div className="address-row">
          <label className="field">
            <span>Picture address</span>
            <input type="url" value={address} placeholder="https://…" aria-invalid={addressError ? true : undefined} onChange={(e) => setAddress(e.target.value)}
              onKeyDown={(e) => { if (e.key === 'Enter') { e.preventDefault(); addAddress(); } }} />
          </label>
          <button type="button" className="button secondary" onClick={addAddress}>Add</button>
        </div>
        {addressError && <p className="error">{addressError}</p>}
      </details>
    </section>
  );
}
