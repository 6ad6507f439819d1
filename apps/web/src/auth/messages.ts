import { BodegaError, type StateMachine } from '@bodega/sdk';

/** A failed sign-in in words a member understands. */
export function failureMessage(state: StateMachine): string {
  if (state.loginState !== 'FAILURE') return 'Something went wrong. Try again.';
  switch (state.errorCode) {
    case 'invalidPassword':
      return 'The e-mail or the password is wrong.';
    case 'emailAlreadyExists':
      return 'An account with this e-mail already exists. Sign in instead.';
    case 'resetPassword':
      return 'This account needs a new password. Use “Forgot your password?” to get a link by e-mail.';
    case 'missingCaptchaToken':
    case 'invalidCaptchaToken':
      return 'This store asks for a captcha check that this page cannot show. Contact the store.';
    case 'invalidEmail':
      return /too many/i.test(state.error) ? 'Too many failed attempts for this e-mail. Wait 15 minutes and try again.' : 'Enter a valid e-mail address.';
    default:
      return state.error || 'Something went wrong. Try again.';
  }
}

/** A server error from a module call (verification, recovery) in plain words. */
export function errorMessage(error: unknown): string {
  if (error instanceof BodegaError) {
    const violation = error.details.validationError?.fieldViolations[0];
    if (violation) return `${violation.field === 'password' || violation.field === 'newPassword' ? 'Password' : violation.field}: ${violation.description}.`;
    const description = error.details.applicationError?.description;
    if (error.status === 429) return 'Too many attempts. Wait a minute and try again.';
    if (description) return description.endsWith('.') ? description : `${description}.`;
  }
  return 'The store could not be reached. Check your connection and try again.';
}
