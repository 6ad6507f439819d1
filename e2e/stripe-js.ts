/**
 * Stripe.js cannot load offline, so a browser test serves a stand-in of it at its real address
 * (https://js.stripe.com/v3/, intercepted by Playwright: the app is not changed for tests) and
 * sends what it asks of https://api.stripe.com on to the local Stripe stand-in. Test code only.
 *
 * The stand-in script does what the checkout's payment step uses, the way Stripe.js does it: the
 * Payment Element is an iframe of its own holding the card fields; createPaymentMethod posts the
 * card with the publishable key (as `key` in the form, as Stripe.js does) and answers a PaymentMethod
 * id; handleNextAction reads the intent by its client secret and follows a `redirect_to_url`
 * (a full-page 3-D Secure redirect). What stays uncovered is Stripe's own iframe and script.
 */
import type { Page } from 'playwright-core';
import type { StandIn } from '../packages/server/src/test/stripe-stand-in.js';

const STRIPE_JS = String.raw`(() => {
  const API = 'https://api.stripe.com/v1';
  const form = (fields) => new URLSearchParams(fields).toString();
  const FIELDS = '<!doctype html><html lang="en"><head><title>Card details</title></head>'
    + '<body style="margin:0;font:16px system-ui,sans-serif;color:#1a1a1a">'
    + '<label style="display:block;margin-bottom:8px">Card number<br><input name="number" inputmode="numeric" autocomplete="cc-number" style="width:95%;font:inherit;padding:6px"></label>'
    + '<label style="display:inline-block;width:48%">Expiration date<br><input name="expiry" placeholder="MM / YY" autocomplete="cc-exp" style="width:90%;font:inherit;padding:6px"></label> '
    + '<label style="display:inline-block;width:48%">Security code<br><input name="cvc" autocomplete="cc-csc" style="width:90%;font:inherit;padding:6px"></label>'
    + '<p id="error" role="alert" style="color:#b00020;margin:6px 0 0"></p></body></html>';
  window.Stripe = function Stripe(key) {
    return {
      elements() {
        let frame;
        const field = (name) => (frame && frame.contentDocument && frame.contentDocument.querySelector('[name=' + name + ']')) || { value: '' };
        const say = (text) => { const el = frame && frame.contentDocument && frame.contentDocument.getElementById('error'); if (el) el.textContent = text; };
        return {
          create() {
            return {
              mount(container) {
                frame = document.createElement('iframe');
                frame.title = 'Secure payment input frame';
                frame.setAttribute('style', 'border:0;width:100%;height:140px;display:block');
                frame.srcdoc = FIELDS;
                container.appendChild(frame);
              },
              destroy() { if (frame) frame.remove(); },
            };
          },
          async submit() {
            if (!field('number').value.trim()) { say('Your card number is incomplete.'); return { error: { message: 'Your card number is incomplete.' } }; }
            say('');
            return {};
          },
          __card() { return field('number').value; },
        };
      },
      async createPaymentMethod({ elements }) {
        const res = await fetch(API + '/payment_methods', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form({ key, type: 'card', 'card[number]': elements.__card() }) });
        const body = await res.json();
        return res.ok ? { paymentMethod: body } : { error: body.error };
      },
      async handleNextAction({ clientSecret }) {
        const id = clientSecret.split('_secret_')[0];
        const res = await fetch(API + '/payment_intents/' + encodeURIComponent(id) + '?' + form({ key, client_secret: clientSecret }));
        const intent = await res.json();
        if (!res.ok) return { error: intent.error };
        const next = intent.next_action;
        if (next && next.type === 'redirect_to_url') {
          window.location.assign(next.redirect_to_url.url);
          return new Promise(() => {});
        }
        return { paymentIntent: intent };
      },
    };
  };
})();`;

/** Serves the stand-in Stripe.js to this page and sends its Stripe API calls to the stand-in. */
export async function routeStripe(page: Page, stand: StandIn): Promise<void> {
  await page.route('https://js.stripe.com/**', (route) => route.fulfill({ contentType: 'text/javascript', body: STRIPE_JS }));
  await page.route('https://api.stripe.com/**', async (route) => {
    const url = new URL(route.request().url());
    const response = await route.fetch({ url: `http://${stand.api.host}:${stand.api.port}${url.pathname}${url.search}` });
    await route.fulfill({ response, headers: { ...response.headers(), 'access-control-allow-origin': '*' } });
  });
}
