import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import type { Member } from '@bodega/sdk';
import { plainError } from '../shop/errors.js';
import { useCurrentMember } from '../shop/member.js';
import { Field } from '../ui/Field.js';
import { Notice } from '../ui/Notice.js';
import { usePageTitle } from '../ui/usePageTitle.js';
import { useChangePassword, useUpdateMember } from './queries.js';

const schema = z.object({
  firstName: z.string().trim().max(100),
  lastName: z.string().trim().max(100),
  nickname: z.string().trim().max(100),
  photoUrl: z.union([z.literal(''), z.url('Enter a full address starting with https://')]),
  slug: z.string().trim().regex(/^[a-z0-9-]*$/, 'Use lower-case letters, digits and hyphens').max(100),
  publicProfile: z.boolean(),
});
type Form = z.infer<typeof schema>;

const passwordSchema = z.object({
  password: z.string().min(8, 'Use 8 to 256 characters.').max(256, 'Use 8 to 256 characters.'),
  confirm: z.string(),
}).refine((v) => v.password === v.confirm, { path: ['confirm'], message: 'The two passwords differ.' });
type PasswordForm = z.infer<typeof passwordSchema>;

export default function ProfilePage() {
  usePageTitle('Your profile');
  const member = useCurrentMember();
  if (!member.data) return null;
  return <ProfileForm member={member.data} />;
}

function ProfileForm({ member }: { member: Member }) {
  const save = useUpdateMember();
  const isPublic = member.privacyStatus === 'PUBLIC';
  const { register, handleSubmit, formState: { errors, isDirty }, reset } = useForm<Form>({
    resolver: zodResolver(schema),
    defaultValues: {
      firstName: member.contact?.firstName ?? '', lastName: member.contact?.lastName ?? '', nickname: member.profile?.nickname ?? '',
      photoUrl: member.profile?.photo?.url ?? '', slug: member.profile?.slug ?? '', publicProfile: isPublic,
    },
  });

  function submit(v: Form) {
    save.mutate({
      id: member._id ?? '',
      update: { contact: { firstName: v.firstName, lastName: v.lastName }, profile: { nickname: v.nickname, ...(v.photoUrl ? { photo: { url: v.photoUrl } } : {}) } },
      slug: v.slug || undefined,
      community: v.publicProfile === isPublic ? undefined : v.publicProfile ? 'join' : 'leave',
    }, { onSuccess: () => reset(v) });
  }

  return (
    <>
      <h1>Profile</h1>
      <p className="muted">Signed in as <strong className="email">{member.loginEmail}</strong></p>
      <form className="panel form-grid" onSubmit={handleSubmit(submit)} noValidate>
        <div className="two">
          <Field label="First name" autoComplete="given-name" {...register('firstName')} error={errors.firstName?.message} />
          <Field label="Last name" autoComplete="family-name" {...register('lastName')} error={errors.lastName?.message} />
        </div>
        <Field label="Nickname" hint="Shown to other members when your profile is public." {...register('nickname')} error={errors.nickname?.message} />
        <Field label="Photo URL" type="url" {...register('photoUrl')} error={errors.photoUrl?.message} />
        <Field label="Profile address (slug)" hint="Lower-case letters, digits and hyphens." {...register('slug')} error={errors.slug?.message} />
        <label className="check"><input type="checkbox" {...register('publicProfile')} /> Public profile (join the community)</label>
        {save.isError && <Notice kind="error">{plainError(save.error)}</Notice>}
        {save.isSuccess && !isDirty && <Notice kind="success">Your profile is saved.</Notice>}
        <div><button type="submit" className="button" disabled={save.isPending}>{save.isPending ? 'Saving…' : 'Save profile'}</button></div>
      </form>
      <PasswordSection loginEmail={member.loginEmail} />
    </>
  );
}

function PasswordSection({ loginEmail }: { loginEmail: string | undefined }) {
  const change = useChangePassword(loginEmail);
  const { register, handleSubmit, reset, formState: { errors } } = useForm<PasswordForm>({ resolver: zodResolver(passwordSchema), defaultValues: { password: '', confirm: '' } });
  return (
    <form className="panel form-grid" onSubmit={handleSubmit((v) => change.mutate(v.password, { onSuccess: () => reset() }))} noValidate aria-labelledby="password-heading">
      <h2 id="password-heading">Change password</h2>
      <div className="two">
        <Field label="New password" type="password" autoComplete="new-password" {...register('password')} error={errors.password?.message} />
        <Field label="New password again" type="password" autoComplete="new-password" {...register('confirm')} error={errors.confirm?.message} />
      </div>
      {change.isError && <Notice kind="error">{plainError(change.error)}</Notice>}
      {change.isSuccess && <Notice kind="success">Your password is changed.</Notice>}
      <div><button type="submit" className="button secondary" disabled={change.isPending}>{change.isPending ? 'Changing…' : 'Change password'}</button></div>
    </form>
  );
}
