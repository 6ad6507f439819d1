import { verification } from '@bodega/sdk';
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from '../router/Router.js';
import { Field } from '../ui/Field.js';
import { Notice } from '../ui/Notice.js';
import { useAuthClient } from './client.js';
import { flowQuery, useFlowParams } from './flow.js';
import { errorMessage } from './messages.js';
import { MissingFlow } from './MissingFlow.js';
import { usePageTitle } from '../ui/usePageTitle.js';
import { useSignInOutcome } from './useSignInOutcome.js';

interface VerifyState {
  stateToken?: string;
  email?: string;
}

export default function VerifyPage() {
  usePageTitle('Enter your code');
  const flow = useFlowParams();
  const client = useAuthClient(flow.clientId);
  const location = useLocation();
  const { stateToken, email } = (location.state ?? {}) as VerifyState;
  const [code, setCode] = useState('');
  const { outcome, run, setOutcome } = useSignInOutcome(flow, email ?? '');
  if (!flow.clientId) return <MissingFlow title="Enter your code" />;
  if (!stateToken) {
    return (
      <>
        <h1>Enter your code</h1>
        <Notice kind="error">This page needs a sign-in in progress. <Link to={`/auth/sign-in${flowQuery(flow)}`}>Sign in again</Link> to get a new code.</Notice>
      </>
    );
  }
  const token = stateToken;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (client) void run(() => client.use(verification).verifyDuringAuthentication(code.trim(), { stateToken: token }));
  }

  async function resend() {
    if (!client) return;
    setOutcome({ busy: true });
    try {
      await client.use(verification).resendDuringAuthentication(token);
      setOutcome({ busy: false, info: 'We sent a new code. Codes are valid for 15 minutes.' });
    } catch (error) {
      setOutcome({ busy: false, error: errorMessage(error) });
    }
  }

  return (
    <>
      <h1>Enter your code</h1>
      <p>We sent a 6-digit code to {email ? <strong className="email">{email}</strong> : 'your e-mail'}. It is valid for 15 minutes.</p>
      {outcome.error && <Notice kind="error">{outcome.error}</Notice>}
      {outcome.info && <Notice kind="info">{outcome.info}</Notice>}
      <form onSubmit={submit} noValidate aria-busy={outcome.busy}>
        <Field
          label="Verification code" name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={6} required
          value={code} onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
        />
        <button type="submit" className="button block" disabled={outcome.busy || code.length !== 6}>Verify</button>
      </form>
      <p><button type="button" className="link" onClick={() => void resend()} disabled={outcome.busy}>Send a new code</button></p>
    </>
  );
}
