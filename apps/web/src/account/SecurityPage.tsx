import { useState, type FormEvent } from 'react';
import type { TotpEnrolment } from '@bodega/sdk';
import { Field } from '../ui/Field.js';
import { ErrorState, Loading } from '../ui/States.js';
import { usePageTitle } from '../ui/usePageTitle.js';
import { errorMessage } from '../auth/messages.js';
import { Passkeys } from './Passkeys.js';
import { useSecurity, useSecurityChange } from './queries.js';
import { ReauthOrError } from './security/ReauthPrompt.js';
import { SignedInSessions } from './security/SignedInSessions.js';

const FACTOR_NAMES = { TOTP: 'Authenticator app', EMAIL: 'E-mail code' } as const;

/** Recovery codes, shown once: the member saves them now or never sees them again. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <section aria-labelledby="recovery-codes-title" className="security-card">
      <h3 id="recovery-codes-title">Your recovery codes</h3>
      <p>Save these somewhere safe. Each one signs you in once if you lose your second step. They are shown only now.</p>
      <ul className="recovery-codes" role="list">{codes.map((c) => <li key={c}><code>{c}</code></li>)}</ul>
    </section>
  );
}

export function TotpSetup({ onCodes }: { onCodes: (codes: string[]) => void }) {
  const start = useSecurityChange<void, TotpEnrolment>((api) => api.startTotp());
  const confirm = useSecurityChange<string, { recoveryCodes?: string[] }>((api, code) => api.confirmTotp(code));
  const [code, setCode] = useState('');
  const enrolment = start.data;
  if (!enrolment) {
    return (
      <div className="security-section">
        <button type="button" className="button" onClick={() => start.mutate()} disabled={start.isPending}>Set up an authenticator app</button>
        {start.isError && <ReauthOrError error={start.error} />}
      </div>
    );
  }
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    confirm.mutate(code.trim(), { onSuccess: (r) => { if (r.recoveryCodes) onCodes(r.recoveryCodes); start.reset(); } });
  }
  return (
    <section aria-labelledby="totp-title" className="security-card">
      <h3 id="totp-title">Scan this code with your authenticator app</h3>
      <img className="qr" alt="QR code for your authenticator app" width={200} height={200}
        src={`data:image/svg+xml;base64,${btoa(enrolment.qrCodeSvg)}`} />
      <p>Or type this key: <code className="secret">{enrolment.secret}</code></p>
      <form onSubmit={submit} noValidate aria-busy={confirm.isPending}>
        <Field label="The 6-digit code your app shows" name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={6}
          value={code} onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))} error={confirm.isError ? errorMessage(confirm.error) : undefined} />
        <button type="submit" className="button" disabled={confirm.isPending || code.length !== 6}>Turn on</button>
      </form>
    </section>
  );
}

/** The member's Security section: second factors, recovery codes, remembered devices, sign out everywhere. */
export default function SecurityPage() {
  usePageTitle('Security');
  const security = useSecurity();
  const [codes, setCodes] = useState<string[] | undefined>();
  const enableEmail = useSecurityChange<void, { recoveryCodes?: string[] }>((api) => api.enableEmail());
  const remove = useSecurityChange<string, void>((api, id) => api.removeFactor(id));
  const regenerate = useSecurityChange<void, { recoveryCodes: string[] }>((api) => api.regenerateRecoveryCodes());
  const forget = useSecurityChange<string, void>((api, id) => api.forgetDevice(id));
  const everywhere = useSecurityChange<void, void>((api) => api.signOutEverywhere());
  if (security.isPending) return <Loading label="Loading your sign-in settings…" />;
  if (security.isError) return <ErrorState error={security.error} retry={() => void security.refetch()} />;
  const { factors, recoveryCodesLeft, devices } = security.data;
  const enabled = factors.filter((f) => f.status === 'ENABLED');
  const hasTotp = enabled.some((f) => f.factorType === 'TOTP');
  const hasEmail = enabled.some((f) => f.factorType === 'EMAIL');
  const failure = [enableEmail, remove, regenerate, forget, everywhere].find((m) => m.isError)?.error;
  return (
    <>
      <h1>Security</h1>
      {failure && <ReauthOrError error={failure} />}
      {codes && <RecoveryCodes codes={codes} />}

      <section aria-labelledby="factors-title" className="security-section">
        <h2 id="factors-title">Second sign-in step</h2>
        <p>{enabled.length ? 'After your password, we ask for one of these.' : 'Add a second step so a stolen password is not enough to sign in.'}</p>
        {enabled.length > 0 && (
          <ul role="list" className="security-rows">
            {enabled.map((f) => (
              <li key={f.factorId}>
                <span>{FACTOR_NAMES[f.factorType]}</span>
                <button type="button" className="button secondary" onClick={() => remove.mutate(f.factorId)} disabled={remove.isPending}
                  aria-label={`Remove ${FACTOR_NAMES[f.factorType]}`}>Remove</button>
              </li>
            ))}
          </ul>
        )}
        {!hasTotp && <TotpSetup onCodes={setCodes} />}
        {!hasEmail && (
          <p><button type="button" className="button secondary" disabled={enableEmail.isPending}
            onClick={() => enableEmail.mutate(undefined, { onSuccess: (r) => { if (r.recoveryCodes) setCodes(r.recoveryCodes); } })}>E-mail me a code at each sign-in</button></p>
        )}
      </section>

      <Passkeys />

      {enabled.length > 0 && (
        <section aria-labelledby="recovery-title" className="security-section">
          <h2 id="recovery-title">Recovery codes</h2>
          <p>{recoveryCodesLeft} of 10 left.</p>
          <button type="button" className="button secondary" disabled={regenerate.isPending}
            onClick={() => regenerate.mutate(undefined, { onSuccess: (r) => setCodes(r.recoveryCodes) })}>Make new recovery codes</button>
        </section>
      )}

      <section aria-labelledby="devices-title" className="security-section">
        <h2 id="devices-title">Remembered devices</h2>
        {devices.length === 0 ? <p>No device skips the second step.</p> : (
          <ul role="list" className="security-rows">
            {devices.map((d) => (
              <li key={d.deviceId}>
                <span>{d.label || 'A browser'} <span className="muted">until {new Date(d.expiresDate).toLocaleDateString()}</span></span>
                <button type="button" className="button secondary" onClick={() => forget.mutate(d.deviceId)} disabled={forget.isPending}
                  aria-label={`Sign out ${d.label || 'this browser'}`}>Sign out</button>
              </li>
            ))}
          </ul>
        )}
      </section>

      <SignedInSessions />

      <section aria-labelledby="everywhere-title" className="security-section">
        <h2 id="everywhere-title">Everywhere</h2>
        <p>Ends every sign-in of your account, on every device, this one too.</p>
        <button type="button" className="button secondary" disabled={everywhere.isPending} onClick={() => everywhere.mutate()}>Sign out everywhere</button>
      </section>
    </>
  );
}
