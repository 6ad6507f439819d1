import { authentication } from '@bodega/sdk';
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from '../router/Router.js';
import { Field } from '../ui/Field.js';
import { Notice } from '../ui/Notice.js';
import { usePageTitle } from '../ui/usePageTitle.js';
import { useAuthClient } from './client.js';
import { flowQuery, useFlowParams } from './flow.js';
import { errorMessage } from './messages.js';
import { MissingFlow } from './MissingFlow.js';
import { passkeyProblem, passkeysSupported, signWithPasskey } from './passkey.js';
import { useSignInOutcome } from './useSignInOutcome.js';

interface SecondFactorState {
  stateToken?: string;
  email?: string;
  factors?: string[];
}

type Method = 'TOTP' | 'EMAIL' | 'WEBAUTHN' | 'RECOVERY_CODE';
type CodeMethod = Exclude<Method, 'WEBAUTHN'>;

const METHOD_NAMES: Record<Method, string> = { TOTP: 'Authenticator app', EMAIL: 'E-mail me a code', WEBAUTHN: 'Passkey', RECOVERY_CODE: 'Recovery code' };

const LABELS: Record<CodeMethod, { field: string; hint: string; pattern?: string }> = {
  TOTP: { field: 'Code from your authenticator app', hint: 'The 6-digit code your app shows now.', pattern: '[0-9]{6}' },
  EMAIL: { field: 'Code from the e-mail', hint: 'We e-mail a 6-digit code, valid for 10 minutes.', pattern: '[0-9]{6}' },
  RECOVERY_CODE: { field: 'Recovery code', hint: 'One of the codes you saved when you set up the second step. Each works once.' },
};

/** The hosted sign-in's second step: a code from the member's authenticator app, e-mail or recovery codes. */
export default function SecondFactorPage() {
  usePageTitle('Confirm it is you');
  const flow = useFlowParams();
  const client = useAuthClient(flow.clientId);
  const location = useLocation();
  const { stateToken, email, factors = [] } = (location.state ?? {}) as SecondFactorState;
  const canPasskey = typeof window !== 'undefined' && passkeysSupported();
  const offered = (['TOTP', 'EMAIL', 'WEBAUTHN', 'RECOVERY_CODE'] as const).filter((m) => factors.includes(m) && (m !== 'WEBAUTHN' || canPasskey));
  const [method, setMethod] = useState<Method>(offered[0] ?? 'TOTP');
  const [code, setCode] = useState('');
  const [remember, setRemember] = useState(false);
  const [emailSent, setEmailSent] = useState(false);
  const { outcome, run, setOutcome } = useSignInOutcome(flow, email ?? '');
  if (!flow.clientId) return <MissingFlow title="Confirm it is you" />;
  if (!stateToken) {
    return (
      <>
        <h1>Confirm it is you</h1>
        <Notice kind="error">This page needs a sign-in in progress. <Link to={`/auth/sign-in${flowQuery(flow)}`}>Sign in again</Link>.</Notice>
      </>
    );
  }
  const token = stateToken;

  async function sendEmail() {
    if (!client) return;
    setOutcome({ busy: true });
    try {
      const answer = await client.use(authentication).verify('EMAIL', { stateToken: token, emailData: {} });
      setEmailSent(true);
      setOutcome({ busy: false, info: `We sent a code to ${answer.mfaChallengeData?.verificationChallengeData?.hint ?? 'your e-mail'}.` });
    } catch (error) {
      setOutcome({ busy: false, error: errorMessage(error) });
    }
  }

  /** The passkey step: the server's challenge for this sign-in, the device's prompt, then the answer. */
  async function passkeyStep() {
    if (!client) return;
    setOutcome({ busy: true });
    let credential: string;
    let challengeId: string;
    try {
      const challenge = await client.use(authentication).verify('WEBAUTHN', { stateToken: token, webauthnData: {} });
      const data = challenge.mfaChallengeData?.verificationChallengeData?.webauthnData;
      challengeId = data?.challengeId ?? '';
      credential = JSON.stringify(await signWithPasskey(data?.publicKeyCredentialRequestOptionsJson ?? '{}'));
    } catch (error) {
      setOutcome({ busy: false, error: passkeyProblem(error) });
      return;
    }
    await run(() => client.use(authentication).verify('WEBAUTHN', { stateToken: token, rememberThisDevice: remember, webauthnData: { challengeId, credential } }));
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (method === 'WEBAUTHN') {
      void passkeyStep();
      return;
    }
    if (!client || !code.trim()) {
      setOutcome({ busy: false, error: 'Enter the code' });
      return;
    }
    const data = { code: code.trim() };
    void run(() => client.use(authentication).verify(method, {
      stateToken: token, rememberThisDevice: remember,
      ...(method === 'TOTP' && { totpData: data }), ...(method === 'EMAIL' && { emailData: data }), ...(method === 'RECOVERY_CODE' && { recoveryCodeData: data }),
    }));
  }

  const label = method === 'WEBAUTHN' ? undefined : LABELS[method];
  return (
    <>
      <h1>Confirm it is you</h1>
      <p>Your account has a second sign-in step{email ? <> for <strong className="email">{email}</strong></> : null}.</p>
      {outcome.error && <Notice kind="error">{outcome.error}</Notice>}
      {outcome.info && <Notice kind="info">{outcome.info}</Notice>}
      {offered.length > 1 && (
        <fieldset className="method-choice">
          <legend>How do you want to confirm?</legend>
          <div className="choices">
            {offered.map((m) => (
              <label key={m} className="choice">
                <input type="radio" name="method" value={m} checked={method === m} onChange={() => { setMethod(m); setCode(''); }} />
                <span>{METHOD_NAMES[m]}</span>
              </label>
            ))}
          </div>
        </fieldset>
      )}
      {method === 'EMAIL' && !emailSent && (
        <p><button type="button" className="button secondary" onClick={() => void sendEmail()} disabled={outcome.busy}>Send the code</button></p>
      )}
      <form onSubmit={submit} noValidate aria-busy={outcome.busy}>
        {method === 'WEBAUTHN' && <p>Your device asks for its screen lock or security key when you continue.</p>}
        {label && <Field
          label={label.field} hint={label.hint} name="code" autoComplete="one-time-code" required
          {...(label.pattern ? { inputMode: 'numeric' as const, pattern: label.pattern, maxLength: 6 } : { maxLength: 24, autoCapitalize: 'none' })}
          value={code} onChange={(e) => setCode(method === 'RECOVERY_CODE' ? e.target.value : e.target.value.replace(/\D/g, ''))}
        />}
        <label className="check"><input type="checkbox" name="remember" checked={remember} onChange={(e) => setRemember(e.target.checked)} /> Remember this device for 30 days</label>
        <button type="submit" className="button block" disabled={outcome.busy}>{outcome.busy ? 'Checking…' : method === 'WEBAUTHN' ? 'Use a passkey' : 'Continue'}</button>
      </form>
      <p><Link to={`/auth/sign-in${flowQuery(flow)}`}>Start over</Link></p>
    </>
  );
}
