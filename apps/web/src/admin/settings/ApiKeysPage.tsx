import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiKeyInfo } from '@bodega/sdk';
import { Field } from '../../ui/Field.js';
import { Notice } from '../../ui/Notice.js';
import { ErrorState, Loading } from '../../ui/States.js';
import { useAdmin, usePermissions } from '../context.js';
import { Confirm, dateTime, PageHead, useResult } from '../ui.js';
import { SettingsNav } from './SettingsNav.js';

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
  const { api } = useAdmin();
  const queryClient = useQueryClient();
  const result = useResult();
  const keys = useQuery({ queryKey: ['admin', 'api-keys'], queryFn: () => api.backOffice.listApiKeys() });
  const [secret, setSecret] = useState<{ name: string; key: string } | null>(null);
  const [revoke, setRevoke] = useState<ApiKeyInfo | null>(null);
  const create = useMutation({
    mutationFn: (name: string) => api.backOffice.createApiKey(name),
    onSuccess: async (res) => { setSecret({ name: res.apiKey.name, key: res.key }); await queryClient.invalidateQueries({ queryKey: ['admin', 'api-keys'] }); },
    onError: (error) => result.fail(error),
  });
  const remove = useMutation({
    mutationFn: (key: ApiKeyInfo) => api.backOffice.revokeApiKey(key.id),
    onSuccess: async (_, key) => { setRevoke(null); result.ok(`The key “${key.name}” is revoked; calls with it are refused from now on.`); await queryClient.invalidateQueries({ queryKey: ['admin', 'api-keys'] }); },
  });
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const name = String(new FormData(form).get('name') ?? '').trim();
    result.clear();
    setSecret(null);
    if (name) create.mutate(name, { onSuccess: () => form.reset() });
  }
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
      <form className="panel settings-form" onSubmit={submit}>
        <h2>New key</h2>
        <Field label="What is it for?" name="name" required maxLength={100} placeholder="e.g. Warehouse sync" />
        <div className="actions"><button type="submit" className="button" disabled={create.isPending}>{create.isPending ? 'Creating…' : 'Create key'}</button></div>
      </form>
      <Confirm open={revoke !== null} onOpenChange={(o) => { if (!o) setRevoke(null); }} title={`Revoke “${revoke?.name ?? ''}”?`} confirmLabel="Revoke key"
        busy={remove.isPending} error={remove.error} onConfirm={() => revoke && remove.mutate(revoke)}>
        <p>Programs using this key stop working at once.</p>
      </Confirm>
    </>
  );
}
