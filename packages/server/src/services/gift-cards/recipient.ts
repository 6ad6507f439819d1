// Who a bought gift card is for. Wix products carry at most two custom text fields, so the gift
// card product has two: "Recipient" — `Name <e-mail>`, or just the e-mail, optionally followed by
// ` on YYYY-MM-DD` (the delivery date) — and "Message". The shop's product page fills them from a form.
export const RECIPIENT_FIELD = 'Recipient';
export const MESSAGE_FIELD = 'Message';

export interface Recipient {
  name: string | null;
  email: string | null;
  /** YYYY-MM-DD, as typed (the caller decides whether it is still ahead). */
  deliveryDate: string | null;
}

const EMAIL = /^[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+$/;

export function parseRecipient(text: string | undefined): Recipient {
  const none: Recipient = { name: null, email: null, deliveryDate: null };
  if (!text) return none;
  let rest = text.trim();
  let deliveryDate: string | null = null;
  const dated = /\s+on\s+(\d{4}-\d{2}-\d{2})$/i.exec(rest);
  if (dated) {
    deliveryDate = dated[1];
    rest = rest.slice(0, dated.index).trim();
  }
  const named = /^(.*?)\s*<([^<>]+)>$/.exec(rest);
  if (named) {
    const email = named[2].trim();
    return { name: named[1].trim() || null, email: EMAIL.test(email) ? email : null, deliveryDate };
  }
  if (EMAIL.test(rest)) return { name: null, email: rest, deliveryDate };
  return { name: rest || null, email: null, deliveryDate };
}

export function formatRecipient(r: { name?: string; email?: string; deliveryDate?: string }): string {
  const who = r.name && r.email ? `${r.name} <${r.email}>` : r.email ?? r.name ?? '';
  return r.deliveryDate ? `${who} on ${r.deliveryDate}` : who;
}
