// The answers of the passkey calls (passkey-routes.ts): they write the wire and document it (openapi.json).
import { Type } from 'typebox';
import { Timestamp } from '../../platform/wire-schema.js';

export const PasskeyInfo = Type.Object({
  passkeyId: Type.String({ description: 'The WebAuthn credential id (base64url).' }),
  name: Type.String(),
  rpId: Type.String({ description: 'The relying party the passkey was made for: a verified domain of the site, or the server\'s host.' }),
  transports: Type.Array(Type.String()),
  deviceType: Type.String({ description: '`multiDevice` (synced) or `singleDevice`.' }),
  backedUp: Type.Boolean(),
  createdDate: Timestamp,
  lastUsedDate: Type.Union([Timestamp, Type.Null()]),
}, { title: 'Passkey', description: 'One of the member\'s passkeys.' });

export const PasskeyList = Type.Object({ passkeys: Type.Array(PasskeyInfo) }, { title: 'PasskeyList' });

export const PasskeyAdded = Type.Object({ passkey: PasskeyInfo }, { title: 'PasskeyAdded' });

export const PasskeyCeremony = Type.Object({
  challengeId: Type.String({ description: 'Send it back with the credential; it works once, for 5 minutes.' }),
  optionsJson: Type.String({
    description: 'PublicKeyCredentialCreationOptionsJSON or PublicKeyCredentialRequestOptionsJSON (WebAuthn Level 3) as a JSON string, as `@wix/identity`\'s `publicKeyCredentialRequestOptionsJson`; parse it for `@simplewebauthn/browser`.',
  }),
}, { title: 'PasskeyCeremony' });
