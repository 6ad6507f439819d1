import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { SITE_SETTINGS_LIMITS, type SiteSettings } from '@bodega/sdk';
import { Field, SelectField } from '../../ui/Field.js';
import { Notice } from '../../ui/Notice.js';
import { ErrorState, Loading } from '../../ui/States.js';
import { usePermissions } from '../context.js';
import { PageHead, useResult } from '../ui.js';
import { SettingsNav } from './SettingsNav.js';
import { DomainsPanel } from './DomainsPanel.js';
import { SiteScriptsSection } from './SiteScriptsForm.js';
import { StaffRulePanel } from './StaffRulePanel.js';
import { useSaveSiteSettings, useSiteSettings } from './queries.js';

const schema = z.object({
  name: z.string().trim().min(1, 'Give the store a name').max(SITE_SETTINGS_LIMITS.name, `At most ${SITE_SETTINGS_LIMITS.name} characters`),
  currency: z.string().trim().regex(/^[A-Z]{3}$/, 'Three capital letters, like USD'),
  signupPolicy: z.enum(['open', 'email-verification', 'owner-approval']),
  captchaRequired: z.boolean(),
  domains: z.string().refine((v) => v.split(/[\s,]+/).filter(Boolean).every((d) => d.length <= SITE_SETTINGS_LIMITS.domain && /^[a-z0-9.-]+$/i.test(d)), 'Host names only, like shop.example.com'),
});
type Form = z.infer<typeof schema>;

export default function StorePage() {
  const settings = useSiteSettings();
  return (
    <>
      <PageHead title="Settings" />
      <SettingsNav />
      {settings.isPending && <Loading label="Loading the settings…" />}
      {settings.isError && <ErrorState error={settings.error} retry={() => void settings.refetch()} />}
      {settings.data && <StoreForm settings={settings.data} />}
      {settings.data && <StaffRulePanel settings={settings.data} />}
      {settings.data && <DomainsPanel domains={settings.data.domainStatus} />}
      <SiteScriptsSection />
    </>
  );
}

function StoreForm({ settings }: { settings: SiteSettings }) {
  const { changeStoreSettings } = usePermissions();
  const result = useResult();
  const { register, handleSubmit, formState: { errors } } = useForm<Form>({
    resolver: zodResolver(schema),
    defaultValues: { name: settings.name, currency: settings.currency, signupPolicy: settings.signupPolicy, captchaRequired: settings.captchaRequired, domains: settings.domains.join('\n') },
  });
  const saving = useSaveSiteSettings();
  const save = (form: Form) => saving.mutate({ ...form, domains: form.domains.split(/[\s,]+/).filter(Boolean) }, {
    onSuccess: () => result.ok('Store settings saved.'),
    onError: (error) => result.fail(error),
  });
  return (
    <form className="panel settings-form" noValidate onSubmit={(e) => { result.clear(); void handleSubmit(save)(e); }}>
      <h2>Store</h2>
      {result.view}
      {!changeStoreSettings && <Notice kind="info">Only the store’s owner changes these settings.</Notice>}
      <fieldset className="plain" disabled={!changeStoreSettings}>
      <Field label="Store name" {...register('name')} error={errors.name?.message} />
      <Field label="Currency" {...register('currency')} error={errors.currency?.message} hint="ISO code; prices are not converted." />
      <SelectField label="Who can sign up" {...register('signupPolicy')}>
        <option value="open">Anyone, at once</option>
        <option value="email-verification">Anyone, after confirming their e-mail</option>
        <option value="owner-approval">Only members you approve</option>
      </SelectField>
      <label className="check"><input type="checkbox" {...register('captchaRequired')} /> Ask for a captcha at sign-up and sign-in</label>
      <div className="field">
        <label htmlFor="domains">Domains</label>
        <textarea id="domains" rows={3} aria-describedby="domains-hint" {...register('domains')} aria-invalid={errors.domains ? true : undefined} />
        <p id="domains-hint" className="hint">One host name per line; the shop answers at each once it is verified.</p>
        {errors.domains && <p className="error">{errors.domains.message}</p>}
      </div>
      {changeStoreSettings && <div className="actions"><button type="submit" className="button" disabled={saving.isPending}>{saving.isPending ? 'Saving…' : 'Save'}</button></div>}
      </fieldset>
    </form>
  );
}
