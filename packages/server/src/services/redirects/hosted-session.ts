export { readCookie } from '../../platform/cookies.js';

/**
 * The hosted pages' sign-in cookie: after signing in on the hosted page, the browser keeps the
 * session token in an HttpOnly cookie on the server's own origin, one per site, so a later
 * `prompt=none` needs no token. Visiting a logout redirect session's fullUrl clears it.
 */
export function sessionCookieName(siteId: string): string {
  return `bodega_session_${siteId.replace(/[^A-Za-z0-9_-]/g, '')}`;
}

export function sessionCookie(siteId: string, token: string, options: { maxAgeSeconds: number; secure: boolean }): string {
  return [
    `${sessionCookieName(siteId)}=${encodeURIComponent(token)}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${Math.floor(options.maxAgeSeconds)}`,
    ...(options.secure ? ['Secure'] : []),
  ].join('; ');
}

export function clearedSessionCookie(siteId: string, secure: boolean): string {
  return [`${sessionCookieName(siteId)}=`, 'Path=/', 'HttpOnly', 'SameSite=Lax', 'Max-Age=0', ...(secure ? ['Secure'] : [])].join('; ');
}
