import type { Db } from '../../platform/db.js';
import type { RequestContext } from '../../platform/caller.js';
import { recordAudit, settingsChange } from '../../platform/audit.js';
import { withTransaction } from '../../platform/context.js';
import { ApiError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { Mailer } from '../../platform/mail.js';
import type { DeliveryEvent } from './envelope.js';
import { urlProblem } from './send.js';
import { newStandardSecret, SiteKeyStore } from './signing.js';
import * as store from './store.js';
import { DEFAULT_WEBHOOK_OPTIONS, WebhookWorker, type EntityRenderer, type WebhookOptions } from './worker.js';
import { encryptSecret, type Keyring } from '../../platform/secrets.js';

export type { Subscription, Delivery, SubscriptionFormat, DeliveryStatus } from './store.js';

export const MAX_SUBSCRIPTIONS_PER_SITE = 50;
export const MAX_EVENT_TYPES = 100;

export interface SubscriptionInput {
  url: string;
  eventTypes: string[];
  format?: store.SubscriptionFormat;
}

/** Webhook subscriptions of a site, their delivery log, and the worker that delivers the outbox. */
export class WebhooksService {
  readonly keys: SiteKeyStore;
  readonly worker: WebhookWorker;
  readonly renderers = new Map<string, EntityRenderer>();

  constructor(private readonly db: Db, private readonly deps: { now: () => Date; publicUrl: string; mail: Mailer; keyring: Keyring; options?: Partial<WebhookOptions> }) {
    this.keys = new SiteKeyStore(db, deps.now, deps.keyring);
    this.worker = new WebhookWorker({ db, now: deps.now, publicUrl: deps.publicUrl, mail: deps.mail, keys: this.keys, renderers: this.renderers }, { ...DEFAULT_WEBHOOK_OPTIONS, ...deps.options });
  }

  /** Events about this entity type carry the entity as the REST reads return it (rendered at fan-out). */
  registerRenderer(entityType: string, render: EntityRenderer): void {
    this.renderers.set(entityType, render);
  }

  private checkUrl(url: string, field: string): void {
    const problem = urlProblem(url, this.worker.options.allowPrivate);
    if (problem) throw ApiError.validation([{ field, rule: 'FORMAT', description: problem }]);
  }

  private checkEventTypes(types: string[], field: string): string[] {
    const unique = [...new Set(types.map((t) => t.trim()))];
    if (unique.length === 0 || unique.some((t) => t === '' || !/^[\w.*-]+$/.test(t))) {
      throw ApiError.validation([{ field, rule: 'FORMAT', description: 'event types are names like order.created, wix.ecom.v1.order_created or *' }]);
    }
    return unique;
  }

  async create(ctx: RequestContext, input: SubscriptionInput): Promise<{ subscription: store.Subscription; secret: string }> {
    this.checkUrl(input.url, 'subscription.url');
    const eventTypes = this.checkEventTypes(input.eventTypes, 'subscription.eventTypes');
    const secret = newStandardSecret();
    const subscription = await withTransaction(ctx, async (tx) => {
      if ((await store.countSubscriptions(tx)) >= MAX_SUBSCRIPTIONS_PER_SITE) throw new ApiError(400, 'TOO_MANY_SUBSCRIPTIONS', `A site has at most ${MAX_SUBSCRIPTIONS_PER_SITE} webhook subscriptions`);
      // Stored sealed with the server key; the caller sees it this once.
      const created = await store.insertSubscription(tx, { id: newId(), url: input.url, eventTypes, format: input.format ?? 'STANDARD', secret: encryptSecret(this.deps.keyring, secret), at: ctx.now() });
      await recordAudit(tx, { action: 'webhook.created', objectType: 'webhook', objectId: created.id, after: auditedView(created) });
      return created;
    });
    return { subscription, secret };
  }

  async list(ctx: RequestContext): Promise<store.Subscription[]> {
    return store.listSubscriptions(ctx);
  }

  async get(ctx: RequestContext, id: string): Promise<store.Subscription> {
    const found = await store.findSubscription(ctx, id);
    if (!found) throw ApiError.notFound('WEBHOOK_NOT_FOUND', `No webhook subscription ${id}`);
    return found;
  }

  async update(ctx: RequestContext, id: string, patch: Partial<SubscriptionInput>): Promise<store.Subscription> {
    if (patch.url !== undefined) this.checkUrl(patch.url, 'subscription.url');
    const eventTypes = patch.eventTypes !== undefined ? this.checkEventTypes(patch.eventTypes, 'subscription.eventTypes') : undefined;
    return this.audited(ctx, id, 'webhook.updated', (tx) => store.updateSubscription(tx, id, { url: patch.url, eventTypes, format: patch.format, at: ctx.now() }));
  }

  /** A change of one subscription under its row lock, recorded in the audit log with what changed. */
  private async audited(ctx: RequestContext, id: string, action: string, change: (tx: RequestContext) => Promise<store.Subscription | undefined>): Promise<store.Subscription> {
    return withTransaction(ctx, async (tx) => {
      const before = await store.findSubscription(tx, id, true);
      const updated = before && (await change(tx));
      if (!before || !updated) throw ApiError.notFound('WEBHOOK_NOT_FOUND', `No webhook subscription ${id}`);
      const changed = settingsChange(auditedView(before), auditedView(updated));
      if (changed) await recordAudit(tx, { action, objectType: 'webhook', objectId: id, ...changed });
      return updated;
    });
  }

  async remove(ctx: RequestContext, id: string): Promise<void> {
    await withTransaction(ctx, async (tx) => {
      const before = await store.findSubscription(tx, id, true);
      if (!before || !(await store.deleteSubscription(tx, id))) throw ApiError.notFound('WEBHOOK_NOT_FOUND', `No webhook subscription ${id}`);
      await recordAudit(tx, { action: 'webhook.deleted', objectType: 'webhook', objectId: id, before: auditedView(before) });
    });
  }

  async pause(ctx: RequestContext, id: string): Promise<store.Subscription> {
    return this.audited(ctx, id, 'webhook.paused',
      (tx) => store.updateSubscription(tx, id, { status: 'PAUSED', pausedReason: `Paused by the merchant at ${ctx.now().toISOString()}`, at: ctx.now() }));
  }

  /** Resumes delivery; what piled up while paused goes out in order. */
  async resume(ctx: RequestContext, id: string): Promise<store.Subscription> {
    return this.audited(ctx, id, 'webhook.resumed',
      (tx) => store.updateSubscription(tx, id, { status: 'ACTIVE', pausedReason: null, resetFailures: true, at: ctx.now() }));
  }

  /** Queues a `webhook.ping` delivery to the subscription (whatever its event types); returns its id. */
  async ping(ctx: RequestContext, id: string): Promise<string> {
    await this.get(ctx, id);
    const deliveryId = newId();
    const at = ctx.now();
    const event: DeliveryEvent = {
      eventId: newId(), type: 'webhook.ping', entityType: 'webhook', entityId: id, siteId: ctx.siteId, eventTime: at.toISOString(),
      payload: { subscriptionId: id, message: 'A test delivery from Bodega' },
    };
    await store.insertDelivery(ctx, { id: deliveryId, subscriptionId: id, event, at });
    return deliveryId;
  }

  async deliveries(ctx: RequestContext, id: string, options: { limit: number; offset: number; status?: store.DeliveryStatus }): Promise<store.Delivery[]> {
    await this.get(ctx, id);
    return store.listDeliveries(ctx, id, options);
  }

  async delivery(ctx: RequestContext, id: string, deliveryId: string): Promise<store.Delivery> {
    const found = await store.findDelivery(ctx, id, deliveryId);
    if (!found) throw ApiError.notFound('DELIVERY_NOT_FOUND', `No delivery ${deliveryId}`);
    return found;
  }

  /** Sends a delivery's event again, as a new delivery (the log keeps both). */
  async replay(ctx: RequestContext, id: string, deliveryId: string): Promise<store.Delivery> {
    const replayId = newId();
    await withTransaction(ctx, async (tx) => {
      const original = await store.deliveryEvent(tx, id, deliveryId);
      if (!original) throw ApiError.notFound('DELIVERY_NOT_FOUND', `No delivery ${deliveryId}`);
      await store.insertDelivery(tx, { id: replayId, subscriptionId: id, event: original.event, replayOf: deliveryId, at: ctx.now() });
      await recordAudit(tx, { action: 'webhook.replayed', objectType: 'webhook', objectId: id, after: { deliveryId: replayId, replayOf: deliveryId, eventType: original.event.type } });
    });
    return this.delivery(ctx, id, replayId);
  }

  /** The public half of the site's key pair: what a Wix-format receiver verifies the JWT with. */
  async publicKey(ctx: RequestContext): Promise<string> {
    return (await this.keys.keysOf(ctx.siteId)).publicKey;
  }
}

/** What the audit log keeps of a subscription (never its secret). */
function auditedView(s: store.Subscription): Record<string, unknown> {
  return { url: s.url, eventTypes: s.eventTypes, format: s.format, status: s.status };
}
