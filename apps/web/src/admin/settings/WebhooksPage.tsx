import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { WebhookSubscription } from '@bodega/sdk';
import { Field } from '../../ui/Field.js';
import { ErrorState, Loading } from '../../ui/States.js';
import { useAdmin } from '../context.js';
import { dateTime, Modal, PageHead, Status, useResult } from '../ui.js';
import { SettingsNav } from './SettingsNav.js';

export default function WebhooksPage() {
  const { api } = useAdmin();
  const queryClient = useQueryClient();
  const result = useResult();
  const hooks = useQuery({ queryKey: ['admin', 'webhooks'], queryFn: () => api.settings.listWebhooks() });
  const [log, setLog] = useState<WebhookSubscription | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (input: { url: string; eventTypes: string[] }) => api.settings.createWebhook({ ...input, format: 'STANDARD' }),
    onSuccess: async (res) => { setSecret(res.secret ?? null); result.ok(`Webhook to ${res.subscription.url} created.`); await queryClient.invalidateQueries({ queryKey: ['admin', 'webhooks'] }); },
    onError: (error) => result.fail(error),
  });
  const test = useMutation({
    mutationFn: (id: string) => api.settings.testWebhook(id),
    onSuccess: () => result.ok('A test event is on its way; its delivery shows in the log.'),
    onError: (error) => result.fail(error),
  });
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    result.clear();
    create.mutate({ url: String(form.get('url') ?? '').trim(), eventTypes: String(form.get('events') ?? '').split(/[\s,]+/).filter(Boolean) });
  }
  return (
    <>
      <PageHead title="Webhooks" lead="Tell your own systems when something happens in the store." />
      <SettingsNav />
      {result.view}
      {secret && <div className="notice notice-success" role="status"><p>Signing secret, shown once:</p><p className="secret">{secret}</p></div>}
      {hooks.isPending && <Loading label="Loading webhooks…" />}
      {hooks.isError && <ErrorState error={hooks.error} retry={() => void hooks.refetch()} />}
      {hooks.data && (
        <div className="table-wrap">
          <table className="table cards">
            <caption className="visually-hidden">Webhooks</caption>
            <thead><tr><th scope="col">Receiver</th><th scope="col">Events</th><th scope="col">Status</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {hooks.data.subscriptions.length === 0 && <tr><td colSpan={4} className="muted">No webhooks.</td></tr>}
              {hooks.data.subscriptions.map((h) => (
                <tr key={h.id}>
                  <td className="truncate card-title">{h.url}</td><td data-label="Events">{h.eventTypes.join(', ')}</td><td data-label="Status"><Status value={h.status} />{h.failuresInRow > 0 && <span className="block small error">{h.failuresInRow} failures in a row</span>}</td>
                  <td className="row-actions">
                    <button type="button" className="button small secondary" onClick={() => test.mutate(h.id)}>Send test<span className="visually-hidden"> to {h.url}</span></button>
                    <button type="button" className="button small secondary" onClick={() => setLog(h)}>Delivery log<span className="visually-hidden"> of {h.url}</span></button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form className="panel settings-form" onSubmit={submit}>
        <h2>New webhook</h2>
        <Field label="Receiver URL" name="url" type="url" required placeholder="https://example.com/hooks/bodega" />
        <Field label="Events" name="events" required hint="Separated by commas, e.g. order.created, order.paid" />
        <div className="actions"><button type="submit" className="button" disabled={create.isPending}>{create.isPending ? 'Creating…' : 'Create webhook'}</button></div>
      </form>
      <Modal open={log !== null} onOpenChange={(o) => { if (!o) setLog(null); }} title="Delivery log" description={log?.url} wide>
        {log && <Deliveries id={log.id} />}
      </Modal>
    </>
  );
}

function Deliveries({ id }: { id: string }) {
  const { api } = useAdmin();
  const deliveries = useQuery({ queryKey: ['admin', 'webhooks', id, 'deliveries'], queryFn: () => api.settings.listDeliveries(id, { limit: 50 }) });
  if (deliveries.isPending) return <Loading label="Loading deliveries…" />;
  if (deliveries.isError) return <ErrorState error={deliveries.error} />;
  if (deliveries.data.deliveries.length === 0) return <p className="muted">Nothing delivered yet.</p>;
  return (
    <div className="table-wrap">
      <table className="table cards">
        <thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">When</th></tr></thead>
        <tbody>
          {deliveries.data.deliveries.map((d) => (
            <tr key={d.id}><td className="card-title">{d.eventType}</td><td data-label="Status"><Status value={d.status} />{d.lastError && <span className="block small error">{d.lastError}</span>}</td><td data-label="Attempts">{d.attempts}</td><td data-label="When">{dateTime(d.createdDate)}</td></tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
