// The answers of /_api/bodega/v1/site-settings: they write the wire, document it (openapi.json)
// and are the SDK's types (npm run gen:sdk-types).
import { Type } from 'typebox';
import { DateTimestamp, oneOf } from '../../platform/wire-schema.js';

export const DomainStatus = Type.Object({
  domain: Type.String(),
  status: oneOf(['PENDING', 'VERIFIED'] as const),
  txtRecord: Type.Object({ name: Type.String(), value: Type.String() }, { description: 'Publish `value` as a TXT record named `name`…' }),
  wellKnownUrl: Type.String({ description: '…or serve `txtRecord.value` as the body of this URL.' }),
  verifiedBy: Type.Optional(oneOf(['OPERATOR', 'DNS_TXT', 'WELL_KNOWN'] as const)),
  verifiedDate: Type.Optional(DateTimestamp),
  lastCheckedDate: Type.Optional(DateTimestamp),
  problem: Type.Optional(Type.String({ description: 'What the last failed check found.' })),
}, { title: 'DomainStatus', description: "A site's domain: what its owner publishes to prove it, and whether that was found." });

export const SignupPolicy = oneOf(['open', 'email-verification', 'owner-approval'] as const, { title: 'SignupPolicy' });

export const SiteSettings = Type.Object({
  name: Type.String(),
  signupPolicy: SignupPolicy,
  currency: Type.String(),
  captchaRequired: Type.Boolean(),
  staffSecondFactorRequired: Type.Boolean({ description: 'Owners and contributors must sign in with a second factor (e-mail codes until they set one up).' }),
  domains: Type.Array(Type.String()),
  domainStatus: Type.Array(DomainStatus, { description: "Each domain's proof: PENDING domains serve nothing until their TXT record or file is found." }),
}, { title: 'SiteSettings' });

export const SiteSettingsAnswer = Type.Object({ settings: SiteSettings });
export const VerifiedDomain = Type.Object({ domainStatus: DomainStatus });
