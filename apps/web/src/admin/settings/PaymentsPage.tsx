import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import type { PaymentSettings } from '@bodega/sdk';
import { Field, SelectField } from '../../ui/Field.js';
import { Notice } from '../../ui/Notice.js';
import { ErrorState, Loading } from '../../ui/States.js';
import { PageHead, useResult } from '../ui.js';
import { usePaymentSettings, useSavePaymentSettings, useTestPaymentConnection } from './queries.js';
import { SettingsNav } from './SettingsNav.js';

const OFFLINE = [['PAY_LATER', 'Pay later'], ['BANK_TRANSFER', 'Bank transfer'], ['CASH_ON_DELIVERY', 'Cash on delivery']] as const;

const schema = z.object({
  provider: z.enum(['test', 'stripe', 'none']),
  capturePolicy: z.enum(['ON_CHECKOUT', 'ON_FULFILLMENT']),
  offlineMethods: z.array(z.enum(['PAY_LATER', 'BANK_TRANSFER', 'CASH_ON_DELIVERY'])),
  publishableKey: z.string().trim().refine((v) => v === '' || v.startsWith('pk_'), 'A publishable key starts with pk_'),
  secretKey: z.string().trim().refine((v) => v === '' || /^(sk|rk)_/.test(v), 'A secret key starts with sk_ (or rk_ for a restricted key)'),
  webhookSecret: z.string().trim().refine((v) => v === '' || v.startsWith('whsec_'), 'A signing secret starts with whsec_'),
});
type Form = z.infer<typeof schema>;

/** The site's payment provider, its keys (entered once, never shown again) and its offline methods: the owner's. */
export default function PaymentsPage() {
  const settings = usePaymentSettings();
  return (
    <>
      <PageHead title="Settings" />
      <SettingsNav />
      {settings.isPending && <Loading label="Loading the payment settings…" />}
      {settings.isError && <ErrorState error={settings.error} retry={() => void settings.refetch()} />}
      {settings.data && <PaymentsForm settings={settings.data} />}
    </>
  );
}

function PaymentsForm({ settings }: { settings: PaymentSettings }) {
  const result = useResult();
  const { register, handleSubmit, watch, reset, formState: { errors } } = useForm<Form>({
    resolver: zodResolver(schema),
    defaultValues: { provider: settings.provider, capturePolicy: settings.capturePolicy, offlineMethods: settings.offlineMethods, publishableKey: settings.publishableKey ?? '', secretKey: '', webhookSecret: '' },
  });
  const provider = watch('provider');
  const saving = useSavePaymentSettings();
  const testing = useTestPaymentConnection();
  const save = (f: Form) => saving.mutate({
    provider: f.provider, capturePolicy: f.capturePolicy, offlineMethods: f.offlineMethods,
    ...(f.provider === 'stripe' && { publishableKey: f.publishableKey || null }),
    ...(f.secretKey && { secretKey: f.secretKey }), ...(f.webhookSecret && { webhookSecret: f.webhookSecret }),
  }, {
    onSuccess: () => {
      result.ok('Payment settings saved. The keys are stored sealed and will not be shown again.');
      reset({ ...watch(), secretKey: '', webhookSecret: '' });
    },
    onError: (error) => result.fail(error),
  });
  const test = () => testing.mutate(undefined, {
    onSuccess: (answer) => (answer.ok ? result.ok(answer.message) : result.fail(new Error(`The connection failed: ${answer.message}`))),
    onError: (error) => result.fail(error),
  });
  return (
    <form className="panel settings-form" noValidate onSubmit={(e) => { result.clear(); void handleSubmit(save)(e); }}>
      <h2>Payments</h2>
      {result.view}
      <SelectField label="Card payments" {...register('provider')}>
        <option value="test">Test provider (demo: no real money)</option>
        <option value="stripe">Stripe</option>
        <option value="none">None: offline payments only</option>
      </SelectField>
      <SelectField label="When card payments are taken" {...register('capturePolicy')}>
        <option value="ON_CHECKOUT">At checkout</option>
        <option value="ON_FULFILLMENT">Authorize at checkout, take the money when the order is fulfilled</option>
      </SelectField>
      <fieldset className="field">
        <legend>Offline ways to pay</legend>
        {OFFLINE.map(([value, label]) => <label key={value} className="check"><input type="checkbox" value={value} {...register('offlineMethods')} /> {label}</label>)}
      </fieldset>
      {provider === 'stripe' && (
        <>
          <Field label="Publishable key" autoComplete="off" {...register('publishableKey')} error={errors.publishableKey?.message} hint="pk_live_… or pk_test_…, from Stripe’s Developers → API keys." />
          <Field label="Secret key" type="password" autoComplete="new-password" {...register('secretKey')} error={errors.secretKey?.message}
            hint={settings.secretKeyHint ? `Saved: ${settings.secretKeyHint}. Leave empty to keep it.` : 'sk_… — stored sealed, never shown again.'} />
          <Field label="Webhook signing secret" type="password" autoComplete="new-password" {...register('webhookSecret')} error={errors.webhookSecret?.message}
            hint={settings.webhookSecretSet ? 'Saved. Leave empty to keep it.' : 'whsec_…, from the webhook endpoint you add in Stripe.'} />
          <Notice kind="info">In Stripe, add a webhook endpoint at <code style={{ overflowWrap: 'anywhere' }}>{settings.webhookUrl}</code> for the payment_intent.*, charge.refunded and charge.dispute.created events.</Notice>
        </>
      )}
      <div className="actions">
        <button type="submit" className="button" disabled={saving.isPending}>{saving.isPending ? 'Saving…' : 'Save'}</button>
        <button type="button" className="button secondary" disabled={testing.isPending} onClick={() => { result.clear(); test(); }}>{testing.isPending ? 'Testing…' : 'Test connection'}</button>
      </div>
    </form>
  );
}
