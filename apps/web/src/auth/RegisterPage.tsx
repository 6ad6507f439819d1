import { authentication } from '@bodega/sdk';
import { useState, type FormEvent } from 'react';
import { Link } from '../router/Router.js';
import { Field } from '../ui/Field.js';
import { Notice } from '../ui/Notice.js';
import { useAuthClient } from './client.js';
import { flowQuery, useFlowParams } from './flow.js';
import { MissingFlow } from './MissingFlow.js';
import { usePageTitle } from '../ui/usePageTitle.js';
import { useSignInOutcome } from './useSignInOutcome.js';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

export default function RegisterPage() {
  usePageTitle('Create an account');
  const flow = useFlowParams();
  const client = useAuthClient(flow.clientId);
  const [email, setEmail] = useState('');
  const [nickname, setNickname] = useState('');
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string>();
  const [emailError, setEmailError] = useState<string>();
  const { outcome, run } = useSignInOutcome(flow, email);
  if (!flow.clientId) return <MissingFlow title="Create an account" />;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // The button is always pressable (it never looks disabled); what is missing is said at its field.
    const length = [...password].length;
    const badPassword = length < PASSWORD_MIN || length > PASSWORD_MAX;
    setEmailError(email.trim() ? undefined : 'Enter your e-mail address');
    setPasswordError(badPassword ? `Use ${PASSWORD_MIN} to ${PASSWORD_MAX} characters.` : undefined);
    if (badPassword || !email.trim()) return;
    const profile = nickname.trim() ? { nickname: nickname.trim() } : undefined;
    if (client) void run(() => client.use(authentication).registerV2({ email: email.trim() }, { password, ...(profile && { profile }) }));
  }

  return (
    <>
      <h1>Create an account</h1>
      {outcome.error && <Notice kind="error">{outcome.error}</Notice>}
      {outcome.info && <Notice kind="info">{outcome.info}</Notice>}
      <form onSubmit={submit} noValidate aria-busy={outcome.busy}>
        <Field label="E-mail" name="email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} error={emailError} />
        <Field label="Name shown to others (optional)" name="nickname" autoComplete="nickname" value={nickname} onChange={(e) => setNickname(e.target.value)} />
        <Field
          label="Password" name="password" type="password" autoComplete="new-password" required
          hint={`${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`} error={passwordError}
          value={password} onChange={(e) => setPassword(e.target.value)}
        />
        <button type="submit" className="button block" disabled={outcome.busy || !client}>{outcome.busy ? 'Creating…' : 'Create account'}</button>
      </form>
      <p>Already have an account? <Link to={`/auth/sign-in${flowQuery(flow)}`}>Sign in</Link></p>
    </>
  );
}
