import { useId } from 'react';
import { Field } from '../ui/Field.js';

/** What a shopper writes on a gift card: for whom, from when, and a message. */
export interface GiftDetails {
  name: string;
  email: string;
  date: string;
  message: string;
}

export const NO_GIFT_DETAILS: GiftDetails = { name: '', email: '', date: '', message: '' };

/** A gift-card product carries the two text fields the server reads (services/gift-cards/recipient.ts). */
export function isGiftCardProduct(product: { customTextFields?: { title?: string }[] }): boolean {
  return (product.customTextFields ?? []).some((f) => f.title === 'Recipient');
}

/** The product's custom text fields: `Recipient` is `Name <e-mail>` plus ` on YYYY-MM-DD`, then `Message`. */
export function giftTextFields(d: GiftDetails): Record<string, string> {
  const name = d.name.trim();
  const email = d.email.trim();
  const who = name && email ? `${name} <${email}>` : email || name;
  const recipient = who && d.date ? `${who} on ${d.date}` : who;
  return { ...(recipient && { Recipient: recipient }), ...(d.message.trim() && { Message: d.message.trim() }) };
}

/** Why the details cannot be sent yet, or undefined. */
export function giftDetailsProblem(d: GiftDetails): string | undefined {
  if (d.email.trim() && !/^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/.test(d.email.trim())) return 'Enter the recipient\'s e-mail like name@example.com, or leave it empty to get the card yourself.';
  if (d.date && !d.email.trim()) return 'A delivery date needs the recipient\'s e-mail.';
  return undefined;
}

export function GiftCardFields({ value, onChange, today }: { value: GiftDetails; onChange: (next: GiftDetails) => void; today: string }) {
  const messageId = useId();
  const problem = giftDetailsProblem(value);
  const set = (key: keyof GiftDetails) => (e: { target: { value: string } }) => onChange({ ...value, [key]: e.target.value });
  return (
    <fieldset className="option gift-details">
      <legend>Who is it for? <span className="muted">(optional)</span></legend>
      <div className="two">
        <Field label="Recipient's name" autoComplete="off" maxLength={100} value={value.name} onChange={set('name')} />
        <Field label="Recipient's e-mail" type="email" autoComplete="off" maxLength={200} value={value.email} onChange={set('email')}
          hint="Leave empty to get the card yourself." error={problem?.includes('e-mail like') ? problem : undefined} />
      </div>
      <Field label="Delivery date" type="date" min={today} value={value.date} onChange={set('date')} hint="We e-mail the card on this day; empty: right away."
        error={problem?.startsWith('A delivery date') ? problem : undefined} />
      <div className="field">
        <label htmlFor={messageId}>Message</label>
        <textarea id={messageId} rows={3} maxLength={480} value={value.message} onChange={set('message')} />
      </div>
    </fieldset>
  );
}
