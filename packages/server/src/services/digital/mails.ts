// The DOWNLOAD_LINKS mail (spec §9): one signed link per file, with how long and how often it works.
import { escapeHtml, type Mail } from '../../platform/mail.js';
import type { DigitalFile, Grant } from './store.js';
import { describeSize } from './uploads.js';

export interface MailedLink {
  grant: Grant;
  file: DigitalFile;
  url: string;
  expiresAt: Date;
}

export function downloadLinksMail(siteId: string, input: { orderNumber: number; to: string; shop: { name: string; origin: string }; links: MailedLink[] }): Mail {
  const { orderNumber, shop, links } = input;
  const until = links[0].expiresAt.toISOString().slice(0, 10);
  const intro = `Your files from order #${orderNumber} are ready to download.`;
  const rules = `Each link works until ${until}; each file can be downloaded ${links[0].grant.maxDownloads} times.`;
  const again = `Need new links later? Sign in and open ${shop.origin}/account/downloads, or ask at ${shop.origin}/downloads with your order number and e-mail.`;
  const label = (l: MailedLink) => `${l.grant.productName}: ${l.file.fileName} (${describeSize(l.file.size)})`;
  const text = [intro, '', ...links.map((l) => `- ${label(l)}\n  ${l.url}`), '', rules, again, '', shop.name].join('\n');
  const html = [
    `<h1>${escapeHtml(shop.name)}</h1>`,
    `<p>${escapeHtml(intro)}</p>`,
    '<ul>',
    ...links.map((l) => `<li><a href="${escapeHtml(l.url)}">${escapeHtml(label(l))}</a></li>`),
    '</ul>',
    `<p>${escapeHtml(rules)}</p>`,
    `<p>${escapeHtml(again)}</p>`,
  ].join('\n');
  return { siteId, kind: 'orders.DOWNLOAD_LINKS', to: input.to, subject: `${shop.name}: your downloads for order #${orderNumber}`, text, html };
}
