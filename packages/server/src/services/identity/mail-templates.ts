import { escapeHtml } from '../../platform/mail.js';
import { CODE_TTL_MS } from './verification-code.js';

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

function page(title: string, paragraphs: string[]): string {
  const body = paragraphs.map((p) => `<p>${p}</p>`).join('\n');
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
    `<body style="font-family: system-ui, sans-serif; line-height: 1.5">\n${body}\n</body></html>`;
}

/** The sign-in verification code, in both the text and the HTML body. */
export function verificationCodeMail(siteName: string, code: string, minutes = CODE_TTL_MS / 60_000): MailContent {
  const subject = `${siteName}: your verification code`;
  return {
    subject,
    text: `Your verification code for ${siteName} is ${code}\n\nIt is valid for ${minutes} minutes. If you did not try to sign in, ignore this e-mail.\n`,
    html: page(subject, [
      `Your verification code for ${escapeHtml(siteName)} is`,
      `<strong style="font-size: 1.5em; letter-spacing: 0.2em" data-verification-code>${escapeHtml(code)}</strong>`,
      `It is valid for ${minutes} minutes. If you did not try to sign in, ignore this e-mail.`,
    ]),
  };
}

/** The password-reset link (valid one hour). */
export function recoveryMail(siteName: string, link: string): MailContent {
  const subject = `${siteName}: reset your password`;
  return {
    subject,
    text: `To choose a new password for ${siteName}, open this link within one hour:\n\n${link}\n\nIf you did not ask for it, ignore this e-mail; your password stays the same.\n`,
    html: page(subject, [
      `To choose a new password for ${escapeHtml(siteName)}, open this link within one hour:`,
      `<a href="${escapeHtml(link)}">${escapeHtml(link)}</a>`,
      'If you did not ask for it, ignore this e-mail; your password stays the same.',
    ]),
  };
}

/** The activation link for an account created without a password. */
export function activationMail(siteName: string, link: string, validHours: number): MailContent {
  const subject = `${siteName}: activate your account`;
  return {
    subject,
    text: `An account was created for you at ${siteName}. Choose your password within ${validHours} hours:\n\n${link}\n`,
    html: page(subject, [
      `An account was created for you at ${escapeHtml(siteName)}. Choose your password within ${validHours} hours:`,
      `<a href="${escapeHtml(link)}">${escapeHtml(link)}</a>`,
    ]),
  };
}
