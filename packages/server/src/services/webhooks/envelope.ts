/**
 * What a delivery carries: the outbox event with its entity rendered in the REST read shape, and
 * the two bodies built from it (Wix domain event inside a JWT, or Standard Webhooks JSON).
 */

import { AUDIT_EVENT_TYPE } from '../../platform/audit.js';

/** A delivery's stored event; the entity is rendered once, at fan-out. */
export interface DeliveryEvent {
  eventId: string;
  /** Bodega's type, e.g. `order.created`. */
  type: string;
  entityType: string;
  entityId: string;
  siteId: string;
  /** ISO time of the commit's transaction. */
  eventTime: string;
  /** The entity as the REST reads return it, when a renderer knows the entity type. */
  entity?: unknown;
  /** The outbox payload as recorded. */
  payload: unknown;
}

type Kind = 'created' | 'updated' | 'deleted' | 'action';

interface WixEvent {
  eventType: string;
  fqdn: string;
  slug: string;
  kind: Kind;
  /** For action events: the key the entity goes under in `actionEvent.body`. */
  bodyKey?: string;
  /** The payload field that holds the entity in its wire shape (recorded with the event). */
  entityKey?: string;
}

const ORDER = 'wix.ecom.v1.order';
const CART = 'wix.ecom.v1.cart';
const CHECKOUT = 'wix.ecom.v1.checkout';
const MEMBER = 'wix.members.v1.member';
const BADGE = 'wix.badges.v3.badge';
const ABOUT = 'wix.members.about.v2.member_about';
const REPORT = 'wix.members.v1.member_report';

/** Bodega event → the Wix event the official SDK's modules subscribe to. */
export const WIX_EVENTS: Readonly<Record<string, WixEvent>> = {
  'order.created': { eventType: 'wix.ecom.v1.order_created', fqdn: ORDER, slug: 'created', kind: 'created' },
  'order.paid': { eventType: 'wix.ecom.v1.order_payment_status_updated', fqdn: ORDER, slug: 'payment_status_updated', kind: 'action', bodyKey: 'order' },
  'order.payment_updated': { eventType: 'wix.ecom.v1.order_payment_status_updated', fqdn: ORDER, slug: 'payment_status_updated', kind: 'action', bodyKey: 'order' },
  'order.canceled': { eventType: 'wix.ecom.v1.order_canceled', fqdn: ORDER, slug: 'canceled', kind: 'action', bodyKey: 'order' },
  'order.fulfilled': { eventType: 'wix.ecom.v1.order_fulfilled', fqdn: ORDER, slug: 'fulfilled', kind: 'action', bodyKey: 'order' },
  'order.fulfillment_created': { eventType: 'wix.ecom.v1.order_updated', fqdn: ORDER, slug: 'updated', kind: 'updated' },
  'order.refunded': { eventType: 'wix.ecom.v1.order_updated', fqdn: ORDER, slug: 'updated', kind: 'updated' },
  'order.updated': { eventType: 'wix.ecom.v1.order_updated', fqdn: ORDER, slug: 'updated', kind: 'updated' },
  'order.imported': { eventType: 'wix.ecom.v1.order_imported', fqdn: ORDER, slug: 'imported', kind: 'action', bodyKey: 'order' },
  'cart.created': { eventType: 'wix.ecom.v1.cart_created', fqdn: CART, slug: 'created', kind: 'created' },
  'cart.updated': { eventType: 'wix.ecom.v1.cart_updated', fqdn: CART, slug: 'updated', kind: 'updated' },
  'cart.deleted': { eventType: 'wix.ecom.v1.cart_deleted', fqdn: CART, slug: 'deleted', kind: 'deleted' },
  'checkout.created': { eventType: 'wix.ecom.v1.checkout_created', fqdn: CHECKOUT, slug: 'created', kind: 'created' },
  'checkout.updated': { eventType: 'wix.ecom.v1.checkout_updated', fqdn: CHECKOUT, slug: 'updated', kind: 'updated' },
  'checkout.completed': { eventType: 'wix.ecom.v1.checkout_completed', fqdn: CHECKOUT, slug: 'completed', kind: 'action', bodyKey: 'checkout' },
  'member.created': { eventType: 'wix.members.v1.member_created', fqdn: MEMBER, slug: 'created', kind: 'created' },
  'member.updated': { eventType: 'wix.members.v1.member_updated', fqdn: MEMBER, slug: 'updated', kind: 'updated' },
  'member.status_changed': { eventType: 'wix.members.v1.member_updated', fqdn: MEMBER, slug: 'updated', kind: 'updated' },
  'member.role_changed': { eventType: 'wix.members.v1.member_updated', fqdn: MEMBER, slug: 'updated', kind: 'updated' },
  'member.deleted': { eventType: 'wix.members.v1.member_deleted', fqdn: MEMBER, slug: 'deleted', kind: 'deleted' },
  'follow.member_followed': { eventType: 'wix.members.v3.follow_member_followed', fqdn: 'wix.members.v3.follow', slug: 'member_followed', kind: 'action' },
  'follow.member_unfollowed': { eventType: 'wix.members.v3.follow_member_unfollowed', fqdn: 'wix.members.v3.follow', slug: 'member_unfollowed', kind: 'action' },
  'member_report.created': { eventType: 'wix.members.v1.member_report_created', fqdn: REPORT, slug: 'created', kind: 'created', entityKey: 'memberReport' },
  'member_report.reported_member_created': { eventType: 'wix.members.v1.member_report_reported_member_created', fqdn: REPORT, slug: 'reported_member_created', kind: 'action' },
  'member_report.reported_member_deleted': { eventType: 'wix.members.v1.member_report_reported_member_deleted', fqdn: REPORT, slug: 'reported_member_deleted', kind: 'action' },
  'badge.assigned': { eventType: 'wix.badges.v3.badge_badge_assigned', fqdn: BADGE, slug: 'badge_assigned', kind: 'action' },
  'badge.unassigned': { eventType: 'wix.badges.v3.badge_badge_unassigned', fqdn: BADGE, slug: 'badge_unassigned', kind: 'action' },
  'member_about.created': { eventType: 'wix.members.about.v2.member_about_created', fqdn: ABOUT, slug: 'created', kind: 'created', entityKey: 'memberAbout' },
  'member_about.updated': { eventType: 'wix.members.about.v2.member_about_updated', fqdn: ABOUT, slug: 'updated', kind: 'updated', entityKey: 'memberAbout' },
  'member_about.deleted': { eventType: 'wix.members.about.v2.member_about_deleted', fqdn: ABOUT, slug: 'deleted', kind: 'deleted', entityKey: 'memberAbout' },
};

/** The Wix event of a Bodega event; types without a Wix counterpart go out as `bodega.<type>` actions. */
export function wixEventOf(type: string): WixEvent {
  const known = WIX_EVENTS[type];
  if (known) return known;
  const [entity, ...rest] = type.split('.');
  return { eventType: `bodega.${type}`, fqdn: `bodega.${entity}`, slug: rest.join('.') || 'changed', kind: 'action' };
}

/** A subscription names Bodega types (`order.created`), Wix types (`wix.ecom.v1.order_created`) or `*`. */
export function subscribes(eventTypes: readonly string[], type: string): boolean {
  // The audit log's events go to the receiver that names them (a SIEM), never to every `*` one.
  if (type === AUDIT_EVENT_TYPE) return eventTypes.includes(type) || eventTypes.includes(wixEventOf(type).eventType);
  if (eventTypes.includes('*') || eventTypes.includes(type)) return true;
  return eventTypes.includes(wixEventOf(type).eventType);
}

/** Who caused the event, as far as the outbox records it (the buyer of carts, checkouts and orders). */
function identityOf(event: DeliveryEvent): Record<string, string> {
  const payload = event.payload as { buyer?: { kind?: string; id?: string } } | null;
  const buyer = payload?.buyer;
  if (buyer?.kind === 'member' && buyer.id) return { identityType: 'MEMBER', memberId: buyer.id };
  if (buyer?.kind === 'visitor' && buyer.id) return { identityType: 'ANONYMOUS_VISITOR', anonymousVisitorId: buyer.id };
  return { identityType: 'UNKNOWN' };
}

/** The entity as sent: the rendered one, else the recorded payload with the entity's id. */
function entityOf(event: DeliveryEvent): unknown {
  if (event.entity !== undefined) return event.entity;
  const payload: Record<string, unknown> = event.payload && typeof event.payload === 'object' ? (event.payload as Record<string, unknown>) : {};
  const key = WIX_EVENTS[event.type]?.entityKey;
  if (key && payload[key] && typeof payload[key] === 'object') return payload[key];
  return { id: event.entityId, ...payload };
}

/**
 * The JSON string that goes into the JWT's `data` claim: eventType, instanceId (the site),
 * identity (a JSON string) and data (a JSON string of the domain event), as the official SDK's
 * `webhooks.parseJWT` reads them.
 */
export function wixJwtData(event: DeliveryEvent): string {
  const wix = wixEventOf(event.type);
  const entity = entityOf(event);
  const body =
    wix.kind === 'created' ? { createdEvent: { entity } }
    : wix.kind === 'updated' ? { updatedEvent: { currentEntity: entity } }
    : wix.kind === 'deleted' ? { deletedEvent: { deletedEntity: entity } }
    : { actionEvent: { body: wix.bodyKey ? { [wix.bodyKey]: entity } : entity } };
  const domainEvent = {
    id: event.eventId,
    entityFqdn: wix.fqdn,
    slug: wix.slug,
    entityId: event.entityId,
    eventTime: event.eventTime,
    triggeredByAnonymizeRequest: false,
    ...body,
  };
  return JSON.stringify({
    eventType: wix.eventType,
    instanceId: event.siteId,
    identity: JSON.stringify(identityOf(event)),
    data: JSON.stringify(domainEvent),
  });
}

/** The Standard Webhooks body: `type`, `timestamp` and `data`. */
export function standardBody(event: DeliveryEvent): string {
  return JSON.stringify({
    type: event.type,
    timestamp: event.eventTime,
    data: { eventId: event.eventId, siteId: event.siteId, entityType: event.entityType, entityId: event.entityId, entity: entityOf(event) },
  });
}
