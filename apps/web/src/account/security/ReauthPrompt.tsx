import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { BodegaError } from '@bodega/sdk';
import { Field } from '../../ui/Field.js';
import { Notice } from '../../ui/Notice.js';
import { errorMessage } from '../../auth/messages.js';
import { useSecurityChange } from '../queries.js';

const schema = z.object({ password: z.string().min(1, 'Enter your password') });
type Form = z.infer<typeof schema>;

/** Whether a Security change was refused for want of a recent sign-in (the server's 10-minute window). */
export const needsPassword = (error: unknown) => error instanceof BodegaError && error.code === 'REAUTHENTICATION_REQUIRED';

/**
 * A Security change's error: for REAUTHENTICATION_REQUIRED, a password form that reopens the window
 * (then the member repeats the change); otherwise the error's message.
 */
export function ReauthOrError({ error, onVerified }: { error: unknown; onVerified?: () => void }) {
  const check = useSecurityChange<string, { verifiedDate: string }>((api, password) => api.reauthenticate(password));
  const { register, handleSubmit, reset, formState: { errors } } = useForm<Form>({ resolver: zodResolver(schema), defaultValues: { password: '' } });
  if (!needsPassword(error)) return <Notice kind="error">{errorMessage(error)}</Notice>;
  if (check.isSuccess) return <Notice kind="success">Thanks. You can make the change now.</Notice>;
  const submit = (form: Form) => check.mutate(form.password, { onSuccess: () => { reset(); onVerified?.(); } });
  return (
    <form className="security-card" noValidate aria-labelledby="reauth-title" onSubmit={(e) => void handleSubmit(submit)(e)}>
      <h3 id="reauth-title">Confirm your password</h3>
      <p>To change how you sign in, enter your password again (asked 10 minutes after signing in).</p>
      <Field label="Password" type="password" autoComplete="current-password" {...register('password')}
        error={errors.password?.message ?? (check.isError ? errorMessage(check.error) : undefined)} />
      <button type="submit" className="button" disabled={check.isPending}>{check.isPending ? 'Checking…' : 'Confirm'}</button>
    </form>
  );
}
