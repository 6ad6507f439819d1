import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { StateMachine } from '@bodega/sdk';
import { continueToApplication, flowQuery, type FlowParams } from './flow.js';
import { failureMessage } from './messages.js';

export interface Outcome {
  busy: boolean;
  error?: string;
  info?: string;
}

/** What register, login and verification lead to: on to the application, a code, or a wait. */
export function useSignInOutcome(flow: FlowParams, email: string) {
  const navigate = useNavigate();
  const [outcome, setOutcome] = useState<Outcome>({ busy: false });

  async function run(call: () => Promise<StateMachine>): Promise<void> {
    setOutcome({ busy: true });
    let state: StateMachine;
    try {
      state = await call();
    } catch {
      setOutcome({ busy: false, error: 'The store could not be reached. Check your connection and try again.' });
      return;
    }
    switch (state.loginState) {
      case 'SUCCESS':
        // The browser leaves for the authorize step; stay busy until it does.
        if (!continueToApplication(flow, state.data.sessionToken)) setOutcome({ busy: false, info: 'You are signed in.' });
        return;
      case 'EMAIL_VERIFICATION_REQUIRED':
        navigate(`/auth/verify${flowQuery(flow)}`, { state: { stateToken: state.data.stateToken, email } });
        return;
      case 'OWNER_APPROVAL_REQUIRED':
        setOutcome({ busy: false, info: 'Your account is waiting for the store owner’s approval. You can sign in once it is approved.' });
        return;
      default:
        setOutcome({ busy: false, error: failureMessage(state) });
    }
  }

  return { outcome, run, setOutcome };
}
