import { useState } from 'react';
import { useNavigate } from '../router/Router.js';
import type { StateMachineResponse } from '@bodega/sdk';
import { useShop } from '../shop/context.js';
import { notifySignInChanged, useReadAgainAsMember } from '../shop/member.js';
import { continueToApplication, flowQuery, type FlowParams } from './flow.js';
import { errorMessage } from './messages.js';

export interface Outcome {
  busy: boolean;
  error?: string;
  info?: string;
}

/** What register, login and verification lead to: on to the application or the shop, a code, or a wait. */
export function useSignInOutcome(flow: FlowParams, email: string) {
  const navigate = useNavigate();
  const readAgain = useReadAgainAsMember();
  const { client } = useShop();
  const [outcome, setOutcome] = useState<Outcome>({ busy: false });

  async function signInHere(sessionToken: string): Promise<void> {
    if (!client) return;
    // The code exchange carries the visitor's identity, so the visitor's cart follows the member.
    client.auth.setTokens(await client.auth.getMemberTokensForDirectLogin(sessionToken));
    notifySignInChanged();
    await readAgain();
    navigate(flow.returnTo ?? '/account', { replace: true });
  }

  async function run(call: () => Promise<StateMachineResponse>): Promise<void> {
    setOutcome({ busy: true });
    let state: StateMachineResponse;
    try {
      state = await call();
    } catch (error) {
      setOutcome({ busy: false, error: errorMessage(error) });
      return;
    }
    switch (state.state) {
      case 'SUCCESS': {
        const sessionToken = state.sessionToken ?? '';
        if (flow.shop) {
          try {
            await signInHere(sessionToken);
          } catch (error) {
            setOutcome({ busy: false, error: errorMessage(error) });
          }
          return;
        }
        // The browser leaves for the authorize step; stay busy until it does.
        if (!continueToApplication(flow, sessionToken)) setOutcome({ busy: false, info: 'You are signed in.' });
        return;
      }
      case 'REQUIRE_EMAIL_VERIFICATION':
        navigate(`/auth/verify${flowQuery(flow)}`, { state: { stateToken: state.stateToken ?? '', email } });
        return;
      case 'REQUIRE_MFA':
        navigate(`/auth/second-factor${flowQuery(flow)}`, {
          state: {
            stateToken: state.stateToken ?? '', email,
            // A factor waiting for activation (the staff rule's TOTP) cannot finish a sign-in yet.
            factors: (state.requireMfaData?.availableFactors ?? []).filter((f) => f.factorStatus !== 'REQUIRE_ACTIVATION').map((f) => f.factorType ?? ''),
          },
        });
        return;
      case 'REQUIRE_OWNER_APPROVAL':
        setOutcome({ busy: false, info: 'Your account is waiting for the store owner’s approval. You can sign in once it is approved.' });
        return;
      default:
        setOutcome({ busy: false, error: 'Something went wrong. Try again.' });
    }
  }

  return { outcome, run, setOutcome };
}
