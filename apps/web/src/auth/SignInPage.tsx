import { authentication } from '@bodega/sdk';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from '../router/Router.js';
import { Field } from '../ui/Field.js';
import { Notice } from '../ui/Notice.js';
import { usePageTitle } from '../ui/usePageTitle.js';
import { useAuthClient } from './client.js';
import { flowQuery, useFlowParams } from './flow.js';
import { MissingFlow } from './MissingFlow.js';
import { passkeyAutofillSupported, passkeySignIn, passkeysSupported } from './passkey.js';
import { useSignInOutcome } from './useSignInOutcome.js';

export default function SignInPage() {
  usePageTitle('Sign in');
  const flow = useFlowParams();
  const client = useAuthClient(flow.clientId);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState<{ email?: string; password?: string }>({});
  const { outcome, run, setOutcome } = useSignInOutcome(flow, email);
  // Undefined until the browser says: the passkey button's place is kept from the first paint, so the
  // links under it do not jump when it appears (a click aimed at "Create an account" hit it).
  const [passkeys, setPasskeys] = useState<boolean>();

  async function withPasskey(autofill: boolean) {
    if (!client) return;
    if (!autofill) setOutcome({ busy: true });
    const started = await passkeySignIn(client, autofill);
    if ('answer' in started) await run(started.answer);
    // A failed autofill says nothing: the person did not ask for it.
    else if (!autofill) setOutcome({ busy: false, error: started.problem });
  }

  // Passkeys where the browser has them; with autofill, the e-mail field offers them as it is focused.
  // Once per page: each run asks the server for a challenge (the client is read again after a sign-in).
  const autofillStarted = useRef(false);
  useEffect(() => {
    const supported = passkeysSupported();
    setPasskeys(supported);
    if (!client || !supported || autofillStarted.current) return;
    autofillStarted.current = true;
    void passkeyAutofillSupported().then((yes) => { if (yes) void withPasskey(true); });
  }, [client]);

  if (!flow.clientId) return <MissingFlow title="Sign in" />;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // The button is always pressable (it never looks disabled); what is missing is said at its field.
    const unfilled = { ...(!email.trim() && { email: 'Enter your e-mail address' }), ...(!password && { password: 'Enter your password' }) };
    setMissing(unfilled);
    if (unfilled.email || unfilled.password) return;
    if (client) void run(() => client.use(authentication).loginV2({ email: email.trim() }, { password }));
  }

  return (
    <>
      <h1>Sign in</h1>
      <p className="muted">Welcome back. Your cart comes with you.</p>
      {outcome.error && <Notice kind="error">{outcome.error}</Notice>}
      {outcome.info && <Notice kind="info">{outcome.info}</Notice>}
      <form onSubmit={submit} noValidate aria-busy={outcome.busy}>
        <Field label="E-mail" name="email" type="email" autoComplete="username webauthn" required value={email} onChange={(e) => setEmail(e.target.value)} error={missing.email} />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} error={missing.password} />
        <button type="submit" className="button block" disabled={outcome.busy || !client}>{outcome.busy ? 'Signing in…' : 'Sign in'}</button>
      </form>
      {passkeys !== false && (
        <div className="passkey-sign-in">
          <p className="or" aria-hidden="true">or</p>
          <button type="button" className="button secondary block" disabled={outcome.busy || !client || !passkeys} onClick={() => void withPasskey(false)}>Use a passkey</button>
        </div>
      )}
      <p><Link to={`/auth/forgot-password${flowQuery(flow)}`}>Forgot your password?</Link></p>
      <p>New here? <Link to={`/auth/register${flowQuery(flow)}`}>Create an account</Link></p>
    </>
  );
}
