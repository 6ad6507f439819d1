import { escapeHtml } from '../../platform/mail.js';

/** JSON safe inside a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/**
 * `response_mode=web_message`: a page that posts the answer to the window that opened it (the
 * silent-sign-in iframe's parent, or a popup's opener), only to the redirect's origin.
 */
export function webMessagePage(targetOrigin: string, data: Record<string, string | undefined>): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Signing in</title></head>
<body>
<p>Signing in…</p>
<script>
(function () {
  var data = ${scriptJson(data)};
  var target = window.parent !== window ? window.parent : window.opener;
  if (target) target.postMessage(data, ${scriptJson(targetOrigin)});
})();
</script>
</body></html>`;
}

/** An error shown instead of redirecting anywhere (unknown client, link or redirect URI). */
export function errorPage(title: string, message: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; padding: 0 1rem">
<main><h1>${escapeHtml(title)}</h1><p role="alert">${escapeHtml(message)}</p></main>
</body></html>`;
}
