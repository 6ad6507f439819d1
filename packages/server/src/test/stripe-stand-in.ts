/**
 * A local stand-in for the few Stripe API endpoints the official SDK calls (test code only): it
 * answers form-encoded PaymentIntent, refund and balance calls, keeps intents in memory, replays
 * a repeated Idempotency-Key's first answer as Stripe does, and signs webhook events with the
 * official SDK's webhooks.generateTestHeaderString.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

export const STAND_IN_SECRET_KEY = 'sk_test_standin_0000';
export const STAND_IN_RESTRICTED_KEY = 'rk_test_standin_0000';
export const STAND_IN_WEBHOOK_SECRET = 'whsec_standin_0000';
/** The publishable key Stripe.js (a browser test's stand-in of it) sends with its calls. */
export const STAND_IN_PUBLISHABLE_KEY = 'pk_test_standin';

/** Stripe's test PaymentMethods, by the outcome they script. */
export const PM = { visa: 'pm_card_visa', declined: 'pm_card_chargeDeclined', threeDS: 'pm_card_threeDSecure2Required' } as const;

/** Stripe's test card numbers, as the Payment Element turns them into PaymentMethods. */
const CARDS: Record<string, string> = { '4242424242424242': PM.visa, '4000000000000002': PM.declined, '4000002760003184': PM.threeDS };

export interface StandInIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  status: string;
  capture_method: string;
  client_secret: string;
  metadata: Record<string, string>;
  payment_method: string;
  next_action: { type: string; redirect_to_url: { url: string; return_url: string } } | null;
  last_payment_error: { message: string } | null;
  latest_charge: string | null;
  amount_refunded: number;
}

export interface StandIn {
  api: { host: string; port: number; protocol: 'http' };
  intents: Map<string, StandInIntent>;
  /** Every create request that reached the stand-in (replays included). */
  creates: number;
  /** The shopper passes (or fails) the 3-D Secure challenge of this intent. */
  complete3ds(intentId: string, outcome?: 'pass' | 'fail'): void;
  /** Called once an intent is made, before the answer goes out (a test may post a webhook here). */
  onCreate?: (intent: StandInIntent) => Promise<void> | void;
  /** When true, create makes the intent but drops the connection instead of answering (a lost answer). */
  dropCreateAnswers: boolean;
  /** When true, a refund is made but its answer is lost (the connection dropped). */
  dropRefundAnswers: boolean;
  /** When true, Stripe is down: every API call's connection is dropped before anything is done. */
  down: boolean;
  /** Refunds made, replays not counted. */
  refunds: number;
  /** When true, Stripe answers every API call with its own failure (a 500 api_error). */
  failing: boolean;
  /** The status new refunds get: Stripe answers `pending` for some banks and methods. */
  refundStatus: 'succeeded' | 'pending';
  /** Authorizations too old to capture (Stripe's charge_expired_for_capture). */
  expired: Set<string>;
  /** A webhook event about this object, signed as Stripe signs it. */
  signed(type: string, object: object): { payload: string; headers: Record<string, string> };
  close(): Promise<void>;
}

let counter = 0;
const nextId = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(++counter).toString(36)}`;

function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}

function metadataOf(form: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of form) {
    const m = /^metadata\[(.+)\]$/.exec(key);
    if (m) out[m[1]] = value;
  }
  return out;
}

export async function startStripeStandIn(): Promise<StandIn> {
  const stripe = new Stripe(STAND_IN_SECRET_KEY);
  const intents = new Map<string, StandInIntent>();
  const replays = new Map<string, { status: number; body: unknown }>();

  const created = (form: URLSearchParams): { status: number; body: unknown; intent: StandInIntent } => {
    const pm = form.get('payment_method') ?? '';
    const manual = form.get('capture_method') === 'manual';
    const id = nextId('pi');
    const intent: StandInIntent = {
      id, object: 'payment_intent', amount: Number(form.get('amount')), amount_received: 0, currency: form.get('currency') ?? 'usd',
      status: manual ? 'requires_capture' : 'succeeded', capture_method: manual ? 'manual' : 'automatic', client_secret: `${id}_secret_x`,
      metadata: metadataOf(form), payment_method: pm, next_action: null, last_payment_error: null, latest_charge: null, amount_refunded: 0,
    };
    if (intent.status === 'succeeded') [intent.amount_received, intent.latest_charge] = [intent.amount, nextId('ch')];
    if (pm === PM.threeDS) {
      intent.status = 'requires_action';
      intent.amount_received = 0;
      intent.latest_charge = null;
      intent.next_action = { type: 'redirect_to_url', redirect_to_url: { url: `http://127.0.0.1:${port}/3ds/${id}`, return_url: form.get('return_url') ?? '' } };
    }
    intents.set(id, intent);
    if (pm === PM.declined) {
      intent.status = 'requires_payment_method';
      intent.last_payment_error = { message: 'Your card was declined.' };
      return { status: 402, body: { error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.', payment_intent: intent } }, intent };
    }
    return { status: 200, body: intent, intent };
  };

  const route = async (req: http.IncomingMessage, form: URLSearchParams): Promise<{ status: number; body: unknown }> => {
    const publishable = publishableRoute(req, form);
    if (publishable) return publishable;
    const auth = req.headers.authorization ?? '';
    if (auth !== `Bearer ${STAND_IN_SECRET_KEY}` && auth !== `Bearer ${STAND_IN_RESTRICTED_KEY}`) {
      return { status: 401, body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } } };
    }
    const restricted = auth === `Bearer ${STAND_IN_RESTRICTED_KEY}`;
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const parts = url.pathname.split('/').filter(Boolean);
    const missing = (what: string) => ({ status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}` } } });
    if (req.method === 'GET' && url.pathname === '/v1/balance') return { status: 200, body: { object: 'balance', available: [], pending: [] } };
    if (parts[1] === 'payment_intents') {
      if (req.method === 'POST' && parts.length === 2) {
        const made = created(form);
        await stand.onCreate?.(made.intent);
        return made;
      }
      const intent = intents.get(parts[2]);
      if (!intent) return missing('payment_intent');
      if (req.method === 'GET' && parts.length === 3) return { status: 200, body: intent };
      if (parts[3] === 'capture') {
        if (stand.expired.has(intent.id)) return { status: 400, body: { error: { type: 'invalid_request_error', code: 'charge_expired_for_capture', message: 'This authorization expired and can no longer be captured' } } };
        if (intent.status !== 'requires_capture') return { status: 400, body: { error: { type: 'invalid_request_error', code: 'payment_intent_unexpected_state', message: `This PaymentIntent is ${intent.status}` } } };
        const amount = Number(form.get('amount_to_capture') ?? intent.amount);
        Object.assign(intent, { status: 'succeeded', amount_received: amount, latest_charge: nextId('ch') });
        return { status: 200, body: intent };
      }
      if (parts[3] === 'cancel') {
        if (intent.status === 'succeeded' || intent.status === 'canceled') return { status: 400, body: { error: { type: 'invalid_request_error', code: 'payment_intent_unexpected_state', message: `This PaymentIntent is ${intent.status}` } } };
        intent.status = 'canceled';
        return { status: 200, body: intent };
      }
    }
    if (req.method === 'POST' && url.pathname === '/v1/refunds') {
      if (restricted) return { status: 403, body: { error: { type: 'invalid_request_error', message: 'This restricted key may not create refunds' } } };
      const intent = intents.get(form.get('payment_intent') ?? '');
      if (!intent) return missing('payment_intent');
      const amount = Number(form.get('amount') ?? intent.amount_received - intent.amount_refunded);
      if (intent.amount_refunded + amount > intent.amount_received) return { status: 400, body: { error: { type: 'invalid_request_error', code: 'charge_already_refunded', message: 'The refund is more than is left' } } };
      intent.amount_refunded += amount;
      stand.refunds += 1;
      return { status: 200, body: { id: nextId('re'), object: 'refund', amount, status: stand.refundStatus, payment_intent: intent.id, failure_reason: null } };
    }
    return { status: 404, body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${url.pathname})` } } };
  };

  /**
   * What Stripe.js calls with the publishable key (sent as `key` in the form or query, as Stripe.js
   * does): make a PaymentMethod from a test card, read an intent by its client secret.
   */
  const publishableRoute = (req: http.IncomingMessage, form: URLSearchParams): { status: number; body: unknown } | undefined => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const key = form.get('key') ?? url.searchParams.get('key');
    if (!key?.startsWith('pk_')) return undefined;
    if (key !== STAND_IN_PUBLISHABLE_KEY) return { status: 401, body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } } };
    if (req.method === 'POST' && url.pathname === '/v1/payment_methods') {
      const number = (form.get('card[number]') ?? '').replace(/\D/g, '');
      const id = CARDS[number];
      if (!id) return { status: 402, body: { error: { type: 'card_error', code: 'incorrect_number', message: 'Your card number is incorrect.' } } };
      return { status: 200, body: { id, object: 'payment_method', type: 'card', card: { brand: 'visa', last4: number.slice(-4) } } };
    }
    const m = /^\/v1\/payment_intents\/([^/]+)$/.exec(url.pathname);
    const intent = m ? intents.get(m[1]) : undefined;
    if (req.method === 'GET' && intent && url.searchParams.get('client_secret') === intent.client_secret) return { status: 200, body: intent };
    return { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such payment_intent' } } };
  };

  /** Stripe's page for a full-page 3-D Secure redirect: pass or fail, then back to the intent's return_url. */
  const challengePage = (req: http.IncomingMessage, res: http.ServerResponse): boolean => {
    const m = /^\/3ds\/([^/?]+)(?:\/(pass|fail))?/.exec(req.url ?? '');
    if (!m) return false;
    const intent = intents.get(m[1]);
    if (!intent?.next_action) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('No 3-D Secure challenge here');
      return true;
    }
    if (req.method === 'POST' && m[2]) {
      const back = new URL(intent.next_action.redirect_to_url.return_url);
      stand.complete3ds(intent.id, m[2] as 'pass' | 'fail');
      back.searchParams.set('payment_intent', intent.id);
      back.searchParams.set('payment_intent_client_secret', intent.client_secret);
      back.searchParams.set('redirect_status', m[2] === 'pass' ? 'succeeded' : 'failed');
      res.writeHead(303, { location: back.toString() }).end();
      return true;
    }
    const amount = `${(intent.amount / 100).toFixed(2)} ${intent.currency.toUpperCase()}`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html lang="en"><head><title>3-D Secure test page</title></head><body><main>
<h1>3-D Secure test payment</h1><p>Confirm the payment of ${amount}.</p>
<form method="post" action="/3ds/${intent.id}/pass"><button>Complete authentication</button></form>
<form method="post" action="/3ds/${intent.id}/fail"><button>Fail authentication</button></form></main></body></html>`);
    return true;
  };

  const server = http.createServer((req, res) => {
    void (async () => {
      if (challengePage(req, res)) return;
      if (stand.down) {
        res.socket?.destroy();
        return;
      }
      const form = await readForm(req);
      if (stand.failing) {
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { type: 'api_error', message: 'An unknown error occurred' } }));
        return;
      }
      const key = req.headers['idempotency-key'];
      const replayKey = typeof key === 'string' ? `${req.method} ${req.url} ${key}` : undefined;
      let answer = replayKey ? replays.get(replayKey) : undefined;
      if (!answer) {
        answer = await route(req, form);
        if (replayKey && answer.status !== 401) replays.set(replayKey, answer);
      }
      if ((stand.dropCreateAnswers && req.method === 'POST' && req.url === '/v1/payment_intents') || (stand.dropRefundAnswers && req.method === 'POST' && req.url === '/v1/refunds')) {
        res.socket?.destroy();
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': nextId('req') });
      res.end(JSON.stringify(answer.body));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const stand: StandIn = {
    api: { host: '127.0.0.1', port, protocol: 'http' },
    intents,
    get creates() { return [...replays.keys()].filter((k) => k.startsWith('POST /v1/payment_intents ')).length; },
    dropCreateAnswers: false,
    dropRefundAnswers: false,
    down: false,
    refunds: 0,
    failing: false,
    refundStatus: 'succeeded',
    expired: new Set(),
    complete3ds(intentId, outcome = 'pass') {
      const intent = intents.get(intentId);
      if (!intent || intent.status !== 'requires_action') throw new Error(`No 3-D Secure challenge on ${intentId}`);
      if (outcome === 'fail') {
        Object.assign(intent, { status: 'requires_payment_method', next_action: null, last_payment_error: { message: 'The cardholder failed 3-D Secure authentication.' } });
        return;
      }
      const manual = intent.capture_method === 'manual';
      Object.assign(intent, { status: manual ? 'requires_capture' : 'succeeded', next_action: null, amount_received: manual ? 0 : intent.amount, latest_charge: manual ? null : nextId('ch') });
    },
    signed(type, object) {
      const payload = JSON.stringify({ id: nextId('evt'), object: 'event', type, api_version: '2025-01-27', created: Math.floor(Date.now() / 1000), data: { object } });
      const header = stripe.webhooks.generateTestHeaderString({ payload, secret: STAND_IN_WEBHOOK_SECRET });
      return { payload, headers: { 'stripe-signature': header, 'content-type': 'application/json' } };
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  return stand;
}
