import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import type { SiteSettings } from '@bodega/sdk';
import { Notice } from '../../ui/Notice.js';
import { usePermissions } from '../context.js';
import { useResult } from '../ui.js';
import { useSaveSiteSettings } from './queries.js';

const schema = z.object({ staffSecondFactorRequired: z.boolean() });
type Form = z.infer<typeof schema>;

/**
 * The owner's rule that owners and contributors sign in with a second step. Once on, the back
 * office refuses a staff member without one and leads them through setting it up (the owner too).
 */
export function StaffRulePanel({ settings }: { settings: SiteSettings }) {
  const { changeStoreSettings } = usePermissions();
  const result = useResult();
  const { register, handleSubmit } = useForm<Form>({
    resolver: zodResolver(schema),
    defaultValues: { staffSecondFactorRequired: settings.staffSecondFactorRequired },
  });
  const saving = useSaveSiteSettings();
  const save = (form: Form) => saving.mutate(form, {
    onSuccess: () => result.ok(form.staffSecondFactorRequired ? 'Staff now sign in with a second step.' : 'A second step is now each person’s choice.'),
    onError: (error) => result.fail(error),
  });
  return (
    <form className="panel settings-form" noValidate aria-labelledby="staff-rule-title" onSubmit={(e) => { result.clear(); void handleSubmit(save)(e); }}>
      <h2 id="staff-rule-title">Sign-in security</h2>
      {result.view}
      {!changeStoreSettings && <Notice kind="info">Only the store’s owner changes this rule.</Notice>}
      <fieldset className="plain" disabled={!changeStoreSettings}>
        <label className="check">
          <input type="checkbox" aria-describedby="staff-rule-hint" {...register('staffSecondFactorRequired')} /> Owners and contributors must sign in with a second step
        </label>
        <p id="staff-rule-hint" className="hint">
          A stolen password is then not enough to run the store. Anyone without a second step (you too) is asked to set one up
          — an authenticator app or e-mail codes — before the back office opens.
        </p>
        {changeStoreSettings && <div className="actions"><button type="submit" className="button" disabled={saving.isPending}>{saving.isPending ? 'Saving…' : 'Save sign-in security'}</button></div>}
      </fieldset>
    </form>
  );
}
