import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { API_KEY_LIMITS, type ApiKeyInfo } from '@bodega/sdk';
import { Field } from '../../ui/Field.js';
import { Notice } from '../../ui/Notice.js';
import { ErrorState, Loading } from '../../ui/States.js';
import { usePermissions } from '../context.js';
import { Confirm, dateTime, PageHead, useResult } from '../ui.js';
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from './queries.js';
import { SettingsNav } from './SettingsNav.js';

const newKeySchema = z.object({ name: z.string().trim().min(1, 'Say what the key is for').max(API_KEY_LIMITS.name, `At most ${API_KEY_LIMITS.name} characters`) });
type NewKey = z.infer<typeof newKeySchema>;

export default function ApiKeysPage() {
  const { manageApiKeys } = usePermissions();
  if (!manageApiKeys) {
    return (
      <>
        <PageHead title="API keys" />
        <SettingsNav />
        <Notice kind="info">Only the store’s owner manages API keys.</Notice>
      </>
    );
  }
  return <ApiKeys />;
}

function ApiKeys() {
  const result = useResult();
  const keys = useApiKeys();
  const [secret, setSecret] = useState<{ name: string; key: string } | null>(null);
  const [revoke, setRevoke] = useState<ApiKeyInfo | null>(null);
  const create = useCreateApiKey();
  const remove = useRevokeApiKey();
  const { register, handleSubmit, reset, formState: { errors } } = useForm<NewKey>({ resolver: zodResolver(newKeySchema), defaultValues: { name: '' } });
  const submit = handleSubmit(({ name }) => {
    result.clear();
    setSecret(null);
    create.mutate(name, {
      onSuccess: (res) => { setSecret({ name: res.apiKey.name, key: res.key }); reset(); },
      onError: (error) => result.fail(error),
    });
  });
  return (
    <>
      <PageHead title="API keys" lead="Keys let your own programs manage the store. Treat them like passwords." />
      <SettingsNav />
      {result.view}
      {secret && (
        <div className="notice notice-success" role="status">
          <p>The key “{secret.name}” is created. Copy it now: it is shown only this once.</p>
          <p className="secret" data-testid="api-key-secret">{secret.key}</p>
          <button type="button" className="button small secondary" onClick={() => void navigator.clipboard?.writeText(secret.key)}>Copy</button>
        </div>
      )}
      {keys.isPending && <Loading label="Loading keys…" />}
      {keys.isError && <ErrorState error={keys.error} retry={() => void keys.refetch()} />}
      {keys.data && (
        <div className="table-wrap">
          <table className="table cards">
            <caption className="visually-hidden">API keys</caption>
            <thead><tr><th scope="col">Name</th><th scope="col">Starts with</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {keys.data.apiKeys.length === 0 && <tr><td colSpan={5} className="muted">No keys.</td></tr>}
              {keys.data.apiKeys.map((k) => (
                <tr key={k.id}>
                  <td className="card-title">{k.name}</td><td data-label="Starts with"><code>{k.prefix ?? '—'}</code></td><td data-label="Created">{dateTime(k.createdDate)}</td><td data-label="Last used">{k.lastUsedDate ? dateTime(k.lastUsedDate) : 'Never'}</td>
                  <td className="row-actions"><button type="button" className="button small secondary danger-outline" onClick={() => setRevoke(k)}>Revoke<span className="visually-hidden"> {k.name}</span></button></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {keys.data && keys.data.apiKeys.length > 0 && <p className="muted small table-note">“Last used” is recorded at most once an hour per key.</p>}
      <form className="panel settings-form" noValidate onSubmit={(e) => void submit(e)}>
        <h2>New key</h2>
        <Field label="What is it for?" maxLength={API_KEY_LIMITS.name} placeholder="e.g. Warehouse sync" {...register('name')} error={errors.name?.message} />
        <div className="actions"><button type="submit" className="button" disabled={create.isPending}>{create.isPending ? 'Creating…' : 'Create key'}</button></div>
      </form>
      <Confirm open={revoke !== null} onOpenChange={(o) => { if (!o) setRevoke(null); }} title={`Revoke “${revoke?.name ?? ''}”?`} confirmLabel="Revoke key"
        busy={remove.isPending} error={remove.error} onConfirm={() => revoke && remove.mutate(revoke.id, { onSuccess: () => { setRevoke(null); result.ok(`The key “${revoke.name}” is revoked; calls with it are refused from now on.`); } })}>
        <p>Programs using this key stop working at once.</p>
      </Confirm>
    </>
  );
}
