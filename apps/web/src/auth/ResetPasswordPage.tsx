import { recovery } from '@bodega/sdk';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from '../router/Router.js';
import { Field } from '../ui/Field.js';
import { Notice } from '../ui/Notice.js';
import { useRecoveryClient } from './client.js';
import { errorMessage } from './messages.js';
import { PASSWORD_MAX, PASSWORD_MIN } from './RegisterPage.js';
import { usePageTitle } from '../ui/usePageTitle.js';

/** Only links back into this store are followed after a reset. */
function sameOrigin(url: string | null): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url, window.location.origin);
    return parsed.origin === window.location.origin ? parsed.pathname + parsed.search : undefined;
  } catch {
    return undefined;
  }
}

export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const activation = params.get('activation') === '1';
  const title = activation ? 'Choose your password' : 'Choose a new password';
  usePageTitle(title);
  const recoveryToken = params.get('recoveryToken');
  const client = useRecoveryClient(params.get('clientId'));
  const next = sameOrigin(params.get('redirectUrl'));
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [fieldError, setFieldError] = useState<{ password?: string; confirm?: string }>({});
  const [state, setState] = useState<{ busy: boolean; done?: boolean; error?: string }>({ busy: false });

  if (!recoveryToken) {
    return (
      <>
        <h1>{title}</h1>
        <Notice kind="error">This link is incomplete. Ask for a new one from “Forgot your password?”.</Notice>
      </>
    );
  }
  const token = recoveryToken;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const length = [...password].length;
    if (length < PASSWORD_MIN || length > PASSWORD_MAX) return setFieldError({ password: `Use ${PASSWORD_MIN} to ${PASSWORD_MAX} characters.` });
    if (password !== confirm) return setFieldError({ confirm: 'The two passwords differ.' });
    setFieldError({});
    setState({ busy: true });
    try {
      if (!client) return;
      await client.use(recovery).recover(token, { password });
      setState({ busy: false, done: true });
    } catch (error) {
      setState({ busy: false, error: errorMessage(error) });
    }
  }

  if (state.done) {
    return (
      <>
        <h1>{title}</h1>
        <Notice kind="info">Your password is set. You are signed out everywhere else.</Notice>
        <p>{next ? <Link to={next}>Continue to sign in</Link> : 'You can now sign in from the store.'}</p>
      </>
    );
  }
  return (
    <>
      <h1>{title}</h1>
      {state.error && <Notice kind="error">{state.error}</Notice>}
      <form onSubmit={(e) => void submit(e)} noValidate aria-busy={state.busy}>
        <Field
          label="New password" name="password" type="password" autoComplete="new-password" required
          hint={`${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`} error={fieldError.password}
          value={password} onChange={(e) => setPassword(e.target.value)}
        />
        <Field
          label="Repeat the new password" name="confirm" type="password" autoComplete="new-password" required error={fieldError.confirm}
          value={confirm} onChange={(e) => setConfirm(e.target.value)}
        />
        <button type="submit" className="button block" disabled={state.busy || !password}>Save password</button>
      </form>
    </>
  );
}
