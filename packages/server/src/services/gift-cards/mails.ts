// The gift card's mails: the recipient's (held until the delivery date) and the buyer's copy.
import { escapeHtml, type Mail } from '../../platform/mail.js';
import { formattedAmount } from '../../platform/money.js';
import { groupCode, obfuscateCode } from './code.js';
import type { GiftCard } from './store.js';

interface Shop {
  name: string;
  origin: string;
}

function cardMail(siteId: string, card: GiftCard, shop: Shop, to: string, forBuyer: boolean): Mail {
  const amount = formattedAmount(card.initialAmount, card.currency);
  const code = groupCode(card.code);
  const from = forBuyer ? '' : card.recipientName ? `${card.recipientName}, ` : '';
  const expiry = card.expiresAt ? `It can be used until ${card.expiresAt.toISOString().slice(0, 10)}.` : 'It never expires.';
  const intro = forBuyer
    ? card.recipientEmail
      ? `Your ${amount} gift card for ${card.recipientName ?? card.recipientEmail} is ready${card.deliverAt ? `; we e-mail it to them on ${card.deliverAt.toISOString().slice(0, 10)}` : ' and on its way to them'}. Its code ends in ${card.code.slice(-4)} (${obfuscateCode(card.code)}).`
      : `Here is your ${amount} gift card for ${shop.name}.`
    : `${from}you have received a ${amount} gift card for ${shop.name}.`;
  const showCode = !forBuyer || !card.recipientEmail;
  const lines = [
    intro,
    ...(card.message && !forBuyer ? ['', `“${card.message}”`] : []),
    ...(showCode ? ['', `Gift card code: ${code}`, `Enter it at checkout, or check its balance at ${shop.origin}/gift-cards/balance`] : []),
    '',
    expiry,
  ];
  return {
    siteId,
    kind: forBuyer ? 'gift-card.buyer-copy' : 'gift-card.delivery',
    to,
    subject: forBuyer ? `Your gift card for ${shop.name}` : `A ${amount} gift card for ${shop.name}`,
    text: lines.join('\n'),
    html: lines.map((l) => (l === '' ? '' : `<p>${escapeHtml(l)}</p>`)).join('\n'),
  };
}

/** What to send when a card is issued, and from when. */
export function deliveryMails(siteId: string, card: GiftCard, buyerEmail: string | null, shop: Shop): { mail: Mail; notBefore?: Date }[] {
  const mails: { mail: Mail; notBefore?: Date }[] = [];
  if (card.recipientEmail) mails.push({ mail: cardMail(siteId, card, shop, card.recipientEmail, false), ...(card.deliverAt && { notBefore: card.deliverAt }) });
  if (buyerEmail && buyerEmail.toLowerCase() !== card.recipientEmail?.toLowerCase()) mails.push({ mail: cardMail(siteId, card, shop, buyerEmail, true) });
  return mails;
}
