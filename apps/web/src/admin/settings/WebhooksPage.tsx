import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import type { WebhookSubscription } from '@bodega/sdk';
import { Field } from '../../ui/Field.js';
import { ErrorState, Loading } from '../../ui/States.js';
import { usePermissions } from '../context.js';
import { Notice } from '../../ui/Notice.js';
import { plainError } from '../../shop/errors.js';
import { Confirm, dateTime, Modal, PageHead, Status, useResult } from '../ui.js';
import { useCreateWebhook, useDeleteWebhook, useDeliveries, useReplayDelivery, useTestWebhook, useToggleWebhook, useWebhooks } from './queries.js';
import { SettingsNav } from './SettingsNav.js';

const newWebhookSchema = z.object({
  url: z.string().trim().refine((v) => /^https?:\/\/\S+$/.test(v), 'A web address such as https://example.com/hooks/bodega'),
  events: z.string().refine((v) => v.split(/[\s,]+/).some(Boolean), 'Name at least one event, such as order.created'),
});
type NewWebhook = z.infer<typeof newWebhookSchema>;

/** Why a webhook is paused, in words: by the merchant, or by the server after failures (its own reason). */
function pauseReason(h: WebhookSubscription): string {
  if (!h.pausedReason || h.pausedReason.startsWith('Paused by the merchant')) return `Paused by you on ${dateTime(h.updatedDate)}; nothing is sent.`;
  return h.pausedReason;
}

export default function WebhooksPage() {
  const { manageWebhooks } = usePermissions();
  if (!manageWebhooks) {
    return (
      <>
        <PageHead title="Webhooks" />
        <SettingsNav />
        <Notice kind="info">Only the store’s owner manages webhooks.</Notice>
      </>
    );
  }
  return <Webhooks />;
}

function Webhooks() {
  const result = useResult();
  const hooks = useWebhooks();
  const [log, setLog] = useState<WebhookSubscription | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<WebhookSubscription | null>(null);
  const create = useCreateWebhook();
  const test = useTestWebhook();
  const toggle = useToggleWebhook();
  const remove = useDeleteWebhook();
  const { register, handleSubmit, formState: { errors } } = useForm<NewWebhook>({ resolver: zodResolver(newWebhookSchema), defaultValues: { url: '', events: '' } });
  const submit = handleSubmit((form) => {
    result.clear();
    create.mutate({ url: form.url, eventTypes: form.events.split(/[\s,]+/).filter(Boolean) }, {
      onSuccess: (res) => { setSecret(res.secret ?? null); result.ok(`Webhook to ${res.subscription.url} created.`); },
      onError: (error) => result.fail(error),
    });
  });
  const sendTest = (id: string) => test.mutate(id, { onSuccess: () => result.ok('A test event is on its way; its delivery shows in the log.'), onError: (error) => result.fail(error) });
  const pauseOrResume = (h: WebhookSubscription) => toggle.mutate(h, {
    onSuccess: (res) => result.ok(res.subscription.status === 'PAUSED' ? `Webhook to ${res.subscription.url} paused: nothing is sent until you resume it.` : `Webhook to ${res.subscription.url} resumed.`),
    onError: (error) => result.fail(error),
  });
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
                  <td className="truncate card-title" title={h.url}>{h.url}</td><td data-label="Events">{h.eventTypes.join(', ')}</td><td data-label="Status">{h.status === 'PAUSED' ? <span className="status status-warn" data-status="PAUSED">Paused</span> : <Status value={h.status} />}{h.status === 'PAUSED' && <span className="block small muted">{pauseReason(h)}</span>}{h.failuresInRow > 0 && <span className="block small error">{h.failuresInRow} failures in a row</span>}</td>
                  <td className="row-actions wrap-actions"><div>
                    <button type="button" className="button small secondary" disabled={h.status === 'PAUSED'} onClick={() => { result.clear(); sendTest(h.id); }}>Send test<span className="visually-hidden"> to {h.url}</span></button>
                    <button type="button" className="button small secondary" disabled={toggle.isPending} onClick={() => { result.clear(); pauseOrResume(h); }}>{h.status === 'PAUSED' ? 'Resume' : 'Pause'}<span className="visually-hidden"> {h.url}</span></button>
                    <button type="button" className="button small secondary" onClick={() => setLog(h)}>Delivery log<span className="visually-hidden"> of {h.url}</span></button>
                    <button type="button" className="button small secondary danger-outline" onClick={() => { result.clear(); remove.reset(); setDeleting(h); }}>Delete<span className="visually-hidden"> {h.url}</span></button>
                  </div></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form className="panel settings-form" noValidate onSubmit={(e) => void submit(e)}>
        <h2>New webhook</h2>
        <Field label="Receiver URL" type="url" placeholder="https://example.com/hooks/bodega" {...register('url')} error={errors.url?.message} />
        <Field label="Events" hint="Separated by commas, e.g. order.created, order.paid" {...register('events')} error={errors.events?.message} />
        <div className="actions"><button type="submit" className="button" disabled={create.isPending}>{create.isPending ? 'Creating…' : 'Create webhook'}</button></div>
      </form>
      <Modal open={log !== null} onOpenChange={(o) => { if (!o) setLog(null); }} title="Delivery log" description={log?.url} wide>
        {log && <Deliveries id={log.id} />}
      </Modal>
      <Confirm open={deleting !== null} onOpenChange={(o) => { if (!o) setDeleting(null); }} title="Delete this webhook?" confirmLabel="Delete webhook"
        busy={remove.isPending} error={remove.error} onConfirm={() => deleting && remove.mutate(deleting, { onSuccess: (_, h) => { setDeleting(null); result.ok(`Webhook to ${h.url} deleted.`); } })}>
        <p>Events stop going to <strong className="truncate">{deleting?.url}</strong>, and its delivery log is deleted with it.</p>
      </Confirm>
    </>
  );
}

function Deliveries({ id }: { id: string }) {
  const [replayed, setReplayed] = useState<string | null>(null);
  const deliveries = useDeliveries(id);
  const replay = useReplayDelivery(id);
  if (deliveries.isPending) return <Loading label="Loading deliveries…" />;
  if (deliveries.isError) return <ErrorState error={deliveries.error} />;
  if (deliveries.data.deliveries.length === 0) return <p className="muted">Nothing delivered yet.</p>;
  return (
    <>
      {replay.isError && <Notice kind="error">{plainError(replay.error)}</Notice>}
      {replayed && !replay.isError && <Notice kind="success">{replayed}</Notice>}
      <div className="table-wrap">
        <table className="table cards">
          <caption className="visually-hidden">Deliveries</caption>
          <thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">When</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr></thead>
          <tbody>
            {deliveries.data.deliveries.map((d) => (
              <tr key={d.id}>
                <td className="card-title">{d.eventType}{d.replayOf && <span className="block small muted">a replay</span>}</td>
                <td data-label="Status"><Status value={d.status} />{d.lastError && <span className="block small error">{d.lastError}</span>}</td>
                <td data-label="Attempts">{d.attempts}</td>
                <td data-label="When">{dateTime(d.createdDate)}</td>
                <td className="row-actions"><button type="button" className="button small secondary" disabled={replay.isPending} onClick={() => { setReplayed(null); replay.mutate(d, { onSuccess: (res) => setReplayed(`${res.delivery.eventType} is sent again as a new delivery.`) }); }}>Replay<span className="visually-hidden"> {d.eventType} of {dateTime(d.createdDate)}</span></button></td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
