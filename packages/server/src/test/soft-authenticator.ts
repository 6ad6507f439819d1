/**
 * A software passkey authenticator for tests: P-256 keys from node:crypto, attestation "none"
 * and assertions built by hand (WebAuthn §6.1 authenticator data, §6.5.4 packed "none", ES256
 * signatures over authData ‖ SHA-256(clientDataJSON)). It answers the JSON that
 * `@simplewebauthn/browser` would send. Test code only.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

interface StoredKey {
  privateKey: KeyObject;
  rpId: string;
  userHandle: string;
  counter: number;
}

interface CreationOptions { challenge: string; rp: { id?: string }; user: { id: string } }
interface RequestOptions { challenge: string; rpId?: string; allowCredentials?: { id: string }[] }

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64 = (data: Buffer) => data.toString('base64url');

/** UP (user present) and UV (user verified); AT when attested credential data follows. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export class SoftAuthenticator {
  readonly keys = new Map<string, StoredKey>();

  /** The answer to `navigator.credentials.create()` from `origin` (a page of the relying party, normally). */
  create(options: CreationOptions, origin: string, { userVerified = true } = {}) {
    const rpId = options.rp.id ?? new URL(origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = isoCBOR.encode(new Map<number, number | Uint8Array>([
      [1, 2], [3, -7], [-1, 1], [-2, Buffer.from(jwk.x ?? '', 'base64url')], [-3, Buffer.from(jwk.y ?? '', 'base64url')],
    ]));
    const credentialId = randomBytes(16);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credentialId.length);
    const authData = Buffer.concat([
      sha256(rpId), Buffer.from([UP | (userVerified ? UV : 0) | AT]), Buffer.alloc(4), Buffer.alloc(16), idLength, credentialId, Buffer.from(cose),
    ]);
    const attestation = new Map<string, string | Uint8Array | Map<string, string>>();
    attestation.set('fmt', 'none');
    attestation.set('attStmt', new Map<string, string>());
    attestation.set('authData', new Uint8Array(authData));
    const attestationObject = isoCBOR.encode(attestation);
    const clientDataJSON = JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin, crossOrigin: false });
    const id = b64(credentialId);
    this.keys.set(id, { privateKey, rpId, userHandle: options.user.id, counter: 0 });
    return {
      id, rawId: id, type: 'public-key' as const, authenticatorAttachment: 'platform' as const, clientExtensionResults: {},
      response: { clientDataJSON: b64(Buffer.from(clientDataJSON)), attestationObject: b64(Buffer.from(attestationObject)), transports: ['internal' as const] },
    };
  }

  /**
   * The answer to `navigator.credentials.get()`: with the named credential, else the first one
   * allowed, else the first one for the relying party. The counter goes up by one unless told.
   */
  get(options: RequestOptions, origin: string, which: { credentialId?: string; counter?: number; userVerified?: boolean } = {}) {
    const rpId = options.rpId ?? new URL(origin).hostname;
    const id = which.credentialId ?? options.allowCredentials?.[0]?.id ?? [...this.keys].find(([, k]) => k.rpId === rpId)?.[0];
    const key = id ? this.keys.get(id) : undefined;
    if (!id || !key) throw new Error('no passkey for this relying party');
    key.counter = which.counter ?? key.counter + 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(key.counter);
    const authData = Buffer.concat([sha256(key.rpId), Buffer.from([UP | (which.userVerified === false ? 0 : UV)]), counter]);
    const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin, crossOrigin: false }));
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), key.privateKey);
    return {
      id, rawId: id, type: 'public-key' as const, authenticatorAttachment: 'platform' as const, clientExtensionResults: {},
      response: { clientDataJSON: b64(clientDataJSON), authenticatorData: b64(authData), signature: b64(signature), userHandle: key.userHandle },
    };
  }
}
