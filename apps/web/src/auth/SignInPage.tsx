import { useState, type FormEvent } from 'react';
import { Link } from '../router/Router.js';
import { Field } from '../ui/Field.js';
import { Notice } from '../ui/Notice.js';
import { usePageTitle } from '../ui/usePageTitle.js';
import { useAuthClient } from './client.js';
import { flowQuery, useFlowParams } from './flow.js';
import { MissingFlow } from './MissingFlow.js';
import { useSignInOutcome } from './useSignInOutcome.js';

export default function SignInPage() {
  usePageTitle('Sign in');
  const flow = useFlowParams();
  const client = useAuthClient(flow.clientId);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState<{ email?: string; password?: string }>({});
  const { outcome, run } = useSignInOutcome(flow, email);
  if (!flow.clientId) return <MissingFlow title="Sign in" />;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // The button is always pressable (it never looks disabled); what is missing is said at its field.
    const unfilled = { ...(!email.trim() && { email: 'Enter your e-mail address' }), ...(!password && { password: 'Enter your password' }) };
    setMissing(unfilled);
    if (unfilled.email || unfilled.password) return;
    if (client) void run(() => client.authentication.loginV2({ email: email.trim() }, { password }));
  }

  return (
    <>
      <h1>Sign in</h1>
      <p className="muted">Welcome back. Your cart comes with you.</p>
      {outcome.error && <Notice kind="error">{outcome.error}</Notice>}
      {outcome.info && <Notice kind="info">{outcome.info}</Notice>}
      <form onSubmit={submit} noValidate aria-busy={outcome.busy}>
        <Field label="E-mail" name="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} error={missing.email} />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} error={missing.password} />
        <button type="submit" className="button block" disabled={outcome.busy || !client}>{outcome.busy ? 'Signing in…' : 'Sign in'}</button>
      </form>
      <p><Link to={`/auth/forgot-password${flowQuery(flow)}`}>Forgot your password?</Link></p>
      <p>New here? <Link to={`/auth/register${flowQuery(flow)}`}>Create an account</Link></p>
    </>
  );
}
