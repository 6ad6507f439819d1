import { recovery } from '@bodega/sdk';
import { useState, type FormEvent } from 'react';
import { Link } from '../router/Router.js';
import { Field } from '../ui/Field.js';
import { Notice } from '../ui/Notice.js';
import { useAuthClient } from './client.js';
import { flowQuery, useFlowParams } from './flow.js';
import { errorMessage } from './messages.js';
import { MissingFlow } from './MissingFlow.js';
import { usePageTitle } from '../ui/usePageTitle.js';

export default function ForgotPasswordPage() {
  usePageTitle('Forgot your password?');
  const flow = useFlowParams();
  const client = useAuthClient(flow.clientId);
  const [email, setEmail] = useState('');
  const [state, setState] = useState<{ busy: boolean; sent?: boolean; error?: string }>({ busy: false });
  if (!flow.clientId) return <MissingFlow title="Forgot your password?" />;
  const clientId = flow.clientId;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setState({ busy: true });
    // After the reset, the member comes back to this sign-in (the server keeps it only if allowed).
    const url = `${window.location.origin}/auth/sign-in${flowQuery(flow)}`;
    try {
      if (!client) return;
      await client.use(recovery).sendRecoveryEmail(email.trim(), { redirect: { url, clientId } });
      setState({ busy: false, sent: true });
    } catch (error) {
      setState({ busy: false, error: errorMessage(error) });
    }
  }

  return (
    <>
      <h1>Forgot your password?</h1>
      {state.error && <Notice kind="error">{state.error}</Notice>}
      {state.sent ? (
        <Notice kind="info">If an account uses {email.trim()}, we sent it a link to choose a new password. The link is valid for one hour.</Notice>
      ) : (
        <form onSubmit={(e) => void submit(e)} noValidate aria-busy={state.busy}>
          <p>Enter your e-mail and we will send you a link to choose a new password.</p>
          <Field label="E-mail" name="email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          <button type="submit" className="button block" disabled={state.busy || !email}>Send the link</button>
        </form>
      )}
      <p><Link to={`/auth/sign-in${flowQuery(flow)}`}>Back to sign in</Link></p>
    </>
  );
}
