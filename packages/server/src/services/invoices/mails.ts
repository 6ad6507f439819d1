// The invoice mail: the invoice's number, the order and its total, and a link to the PDF that
// works without signing in until it expires (the mailer sends no attachments).
import { escapeHtml, type Mail } from '../../platform/mail.js';

export function invoiceMail(siteId: string, input: {
  to: string; shopName: string; invoiceNumber: string; orderNumber: number; total: string; url: string; expiresAt: Date;
}): Mail {
  const intro = `Here is invoice ${input.invoiceNumber} for your order #${input.orderNumber} (total ${input.total}).`;
  const until = `The link works until ${input.expiresAt.toISOString().slice(0, 10)}; signed-in customers also find the invoice with the order in their account.`;
  const text = [intro, '', `Download the invoice (PDF): ${input.url}`, '', until, '', input.shopName].join('\n');
  const html = [
    `<h1>${escapeHtml(input.shopName)}</h1>`,
    `<p>${escapeHtml(intro)}</p>`,
    `<p><a href="${escapeHtml(input.url)}">Download invoice ${escapeHtml(input.invoiceNumber)} (PDF)</a></p>`,
    `<p>${escapeHtml(until)}</p>`,
  ].join('\n');
  return { siteId, kind: 'orders.INVOICE', to: input.to, subject: `${input.shopName}: invoice ${input.invoiceNumber} for order #${input.orderNumber}`, text, html };
}
