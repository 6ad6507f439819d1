import { useState } from 'react';
import { RecoveryCodes, TotpSetup } from '../../account/SecurityPage.js';
import { useSecurity, useSecurityChange } from '../../account/queries.js';
import { ReauthOrError } from '../../account/security/ReauthPrompt.js';
import { Notice } from '../../ui/Notice.js';
import { ErrorState, Loading } from '../../ui/States.js';
import { usePageTitle } from '../../ui/usePageTitle.js';

/**
 * The back office's answer to SECOND_FACTOR_REQUIRED: the owner requires staff to sign in with a
 * second step and this member has none. It leads them through one (an authenticator app or e-mail
 * codes, with the account page's own parts), shows the recovery codes once, then continues.
 */
export function EnrolmentGate({ onDone, signOut }: { onDone: () => void; signOut: () => void }) {
  usePageTitle('Set up a second sign-in step');
  const security = useSecurity();
  const [codes, setCodes] = useState<string[] | undefined>();
  const enableEmail = useSecurityChange<void, { recoveryCodes?: string[] }>((api) => api.enableEmail());
  const enrolled = security.data?.factors.some((f) => f.status === 'ENABLED') ?? false;
  return (
    <main id="main" className="admin-gate">
      <div className="auth-card enrolment">
        <p className="eyebrow">Back office</p>
        <h1>Set up a second sign-in step</h1>
        <p>This store asks its owner and contributors to confirm each sign-in with a second step, so a stolen password is not enough to run it.</p>
        {security.isPending && <Loading label="Loading your sign-in settings…" />}
        {security.isError && <ErrorState error={security.error} retry={() => void security.refetch()} />}
        {codes && <RecoveryCodes codes={codes} />}
        {security.data && !enrolled && (
          <>
            <h2>An authenticator app</h2>
            <TotpSetup onCodes={setCodes} />
            <h2>Or e-mail codes</h2>
            <p>We e-mail you a 6-digit code at each sign-in.</p>
            <p>
              <button type="button" className="button secondary" disabled={enableEmail.isPending}
                onClick={() => enableEmail.mutate(undefined, { onSuccess: (r) => { if (r.recoveryCodes) setCodes(r.recoveryCodes); } })}>
                E-mail me a code at each sign-in
              </button>
            </p>
            {enableEmail.isError && <ReauthOrError error={enableEmail.error} />}
          </>
        )}
        {enrolled && (
          <>
            <Notice kind="success">Your second step is set up.</Notice>
            <p><button type="button" className="button" onClick={onDone}>{codes ? 'I saved my codes — continue' : 'Continue to the back office'}</button></p>
          </>
        )}
        <p className="small"><button type="button" className="link" onClick={signOut}>Sign out</button></p>
      </div>
    </main>
  );
}
