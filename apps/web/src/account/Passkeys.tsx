import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import type { Passkey } from '@bodega/sdk';
import { Field } from '../ui/Field.js';
import { Notice } from '../ui/Notice.js';
import { ErrorState, Loading } from '../ui/States.js';
import { errorMessage } from '../auth/messages.js';
import { createPasskey, passkeyProblem, passkeysSupported } from '../auth/passkey.js';
import { usePasskeyChange, usePasskeys } from './queries.js';

const nameSchema = z.object({ name: z.string().trim().min(1, 'Give the passkey a name').max(100, 'At most 100 characters') });
type NameForm = z.infer<typeof nameSchema>;

/** A name for a new passkey from the browser: "Chrome on Android" and the like. */
function guessName(): string {
  if (typeof navigator === 'undefined') return 'My passkey';
  const ua = navigator.userAgent;
  const browser = /Edg\//.test(ua) ? 'Edge' : /Firefox\//.test(ua) ? 'Firefox' : /Chrome\//.test(ua) ? 'Chrome' : /Safari\//.test(ua) ? 'Safari' : 'Browser';
  const system = /Android/.test(ua) ? 'Android' : /iPhone|iPad/.test(ua) ? 'iOS' : /Mac OS X/.test(ua) ? 'macOS' : /Windows/.test(ua) ? 'Windows' : /Linux/.test(ua) ? 'Linux' : '';
  return system ? `${browser} on ${system}` : browser;
}

/** Adds a passkey: its name first, then the device's own prompt (screen lock, fingerprint or security key). */
function AddPasskey() {
  const add = usePasskeyChange<string, { passkey: Passkey }>(async (api, name) => {
    const { challengeId, optionsJson } = await api.registrationOptions();
    return api.register(challengeId, name, await createPasskey(optionsJson));
  });
  const { register, handleSubmit, reset, formState: { errors } } = useForm<NameForm>({ resolver: zodResolver(nameSchema), defaultValues: { name: guessName() } });
  const [added, setAdded] = useState<string | undefined>();
  const problem = add.isError ? passkeyProblem(add.error) : undefined;
  return (
    <form className="passkey-add" noValidate aria-busy={add.isPending}
      onSubmit={handleSubmit((form) => add.mutate(form.name, { onSuccess: (r) => { setAdded(r.passkey.name); reset({ name: guessName() }); } }))}>
      {added && <Notice kind="info">Passkey “{added}” added. You can sign in with it now.</Notice>}
      {problem && <Notice kind="error">{problem}</Notice>}
      <Field label="Passkey name" hint="So you can tell your passkeys apart, e.g. the device it is on." maxLength={100} {...register('name')} error={errors.name?.message} />
      <button type="submit" className="button" disabled={add.isPending}>{add.isPending ? 'Waiting for your device…' : 'Add a passkey'}</button>
    </form>
  );
}

function PasskeyRow({ passkey }: { passkey: Passkey }) {
  const [renaming, setRenaming] = useState(false);
  const rename = usePasskeyChange<string, { passkey: Passkey }>((api, name) => api.rename(passkey.passkeyId, name));
  const remove = usePasskeyChange<void, void>((api) => api.remove(passkey.passkeyId));
  const { register, handleSubmit, formState: { errors } } = useForm<NameForm>({ resolver: zodResolver(nameSchema), defaultValues: { name: passkey.name } });
  const used = passkey.lastUsedDate ? `last used ${new Date(passkey.lastUsedDate).toLocaleDateString()}` : 'not used yet';
  if (renaming) {
    return (
      <li>
        <form className="passkey-rename" noValidate onSubmit={handleSubmit((form) => rename.mutate(form.name, { onSuccess: () => setRenaming(false) }))}>
          <Field label={`New name for ${passkey.name}`} maxLength={100} {...register('name')} error={errors.name?.message ?? (rename.isError ? errorMessage(rename.error) : undefined)} />
          <button type="submit" className="button" disabled={rename.isPending}>Save</button>
          <button type="button" className="button secondary" onClick={() => setRenaming(false)}>Cancel</button>
        </form>
      </li>
    );
  }
  return (
    <li>
      <span>{passkey.name} <span className="muted">added {new Date(passkey._createdDate).toLocaleDateString()}, {used}</span></span>
      <span className="row-actions">
        <button type="button" className="button secondary" onClick={() => setRenaming(true)} aria-label={`Rename ${passkey.name}`}>Rename</button>
        <button type="button" className="button secondary" onClick={() => remove.mutate()} disabled={remove.isPending} aria-label={`Remove ${passkey.name}`}>Remove</button>
      </span>
      {remove.isError && <Notice kind="error">{errorMessage(remove.error)}</Notice>}
    </li>
  );
}

/** The account's passkeys: sign in with the device's screen lock instead of a password, or as the second step. */
export function Passkeys() {
  const list = usePasskeys();
  const supported = typeof window !== 'undefined' && passkeysSupported();
  return (
    <section aria-labelledby="passkeys-title" className="security-section">
      <h2 id="passkeys-title">Passkeys</h2>
      <p>A passkey signs you in with your device’s screen lock or a security key, without a password. It also works as your second step.</p>
      {list.isPending ? <Loading label="Loading your passkeys…" /> : list.isError ? <ErrorState error={list.error} retry={() => void list.refetch()} /> : (
        list.data.passkeys.length > 0 && (
          <ul role="list" className="security-rows">{list.data.passkeys.map((p) => <PasskeyRow key={p.passkeyId} passkey={p} />)}</ul>
        )
      )}
      {supported ? <AddPasskey /> : <p className="muted">This browser cannot make passkeys.</p>}
    </section>
  );
}
