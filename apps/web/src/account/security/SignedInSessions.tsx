import type { SignedInSession } from '@bodega/sdk';
import { Notice } from '../../ui/Notice.js';
import { ErrorState, Loading } from '../../ui/States.js';
import { errorMessage } from '../../auth/messages.js';
import { useSecurityChange, useSignedInSessions } from '../queries.js';

/** A readable name for a sign-in's browser: "Chrome on Linux", or the app's sign-in. */
export function deviceName(userAgent: string): string {
  if (!userAgent) return 'An app';
  const browser = /Edg\//.test(userAgent) ? 'Edge' : /Firefox\//.test(userAgent) ? 'Firefox' : /Chrom(e|ium)\//.test(userAgent) ? 'Chrome'
    : /Safari\//.test(userAgent) ? 'Safari' : 'A browser';
  const system = /iPhone|iPad/.test(userAgent) ? 'iOS' : /Android/.test(userAgent) ? 'Android' : /Windows/.test(userAgent) ? 'Windows'
    : /Mac OS X/.test(userAgent) ? 'macOS' : /Linux/.test(userAgent) ? 'Linux' : '';
  return system ? `${browser} on ${system}` : browser;
}

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The member's signed-in sessions, each with "Sign out" (this one is marked and left to the menu's sign-out). */
export function SignedInSessions() {
  const sessions = useSignedInSessions();
  const end = useSecurityChange<string, void>((api, id) => api.endSession(id));
  return (
    <section aria-labelledby="sessions-title" className="security-section">
      <h2 id="sessions-title">Signed-in sessions</h2>
      {sessions.isPending && <Loading label="Loading your sessions…" />}
      {sessions.isError && <ErrorState error={sessions.error} retry={() => void sessions.refetch()} />}
      {end.isError && <Notice kind="error">{errorMessage(end.error)}</Notice>}
      {sessions.data && (sessions.data.length === 0 ? <p>No other sign-ins.</p> : (
        <ul role="list" className="security-rows">
          {sessions.data.map((s: SignedInSession) => (
            <li key={s.sessionId}>
              <span>
                {deviceName(s.userAgent)}{s.current && <strong> · this session</strong>}
                <span className="block muted small">Signed in {when(s.signedInDate)}, last active {when(s.lastUsedDate)}</span>
              </span>
              {!s.current && (
                <button type="button" className="button secondary" disabled={end.isPending} onClick={() => end.mutate(s.sessionId)}
                  aria-label={`Sign out ${deviceName(s.userAgent)}, signed in ${when(s.signedInDate)}`}>Sign out</button>
              )}
            </li>
          ))}
        </ul>
      ))}
    </section>
  );
}
