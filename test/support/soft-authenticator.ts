// A software WebAuthn authenticator for tests without a browser: it answers
// creation and request options as a platform authenticator does (attestation
// "none", ES256, a discoverable credential), so the server's real verification
// (@simplewebauthn/server) runs on every answer. The browser test uses
// Chromium's virtual authenticator instead.
import { createHash, createPrivateKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

export interface SoftCredential {
  id: string;
  privateKey: KeyObject;
  /** base64url user handle from the creation options (the account's). */
  userHandle: string;
  rpId: string;
  /** The signature counter; the next assertion signs counter + 1. */
  counter: number;
}

const b64 = (bytes: Uint8Array): string => isoBase64URL.fromBuffer(new Uint8Array(bytes));
const sha256 = (data: Uint8Array | string): Buffer => createHash('sha256').update(data).digest();

/** Flags: UP (user present) and UV (user verified), AT when credential data follows. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

function counterBytes(counter: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(counter);
  return bytes;
}

interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}

interface RequestOptions {
  challenge: string;
  rpId?: string;
}

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];

  constructor(private readonly origin: string) {}

  /** Answers creation options (what startRegistration sends back). */
  create(options: CreationOptions, overrides: { origin?: string } = {}) {
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const coseKey = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, isoBase64URL.toBuffer(jwk.x!)],
      [-3, isoBase64URL.toBuffer(jwk.y!)],
    ]);
    const credentialId = randomBytes(16);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credentialId.length);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([UP | UV | AT]),
      counterBytes(0),
      Buffer.alloc(16), // aaguid
      idLength,
      credentialId,
      Buffer.from(isoCBOR.encode(coseKey)),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    const clientDataJSON = JSON.stringify({
      type: 'webauthn.create',
      challenge: options.challenge,
      origin: overrides.origin ?? this.origin,
      crossOrigin: false,
    });
    const credential: SoftCredential = {
      id: b64(credentialId),
      privateKey: createPrivateKey(privateKey.export({ format: 'pem', type: 'pkcs8' })),
      userHandle: options.user.id,
      rpId,
      counter: 0,
    };
    this.credentials.push(credential);
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key' as const,
      authenticatorAttachment: 'platform' as const,
      response: {
        clientDataJSON: b64(Buffer.from(clientDataJSON)),
        attestationObject: b64(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  /** Answers request options with a credential (the last one made by default): what startAuthentication sends back. */
  get(options: RequestOptions, overrides: { credential?: SoftCredential; counter?: number; origin?: string } = {}) {
    const credential = overrides.credential ?? this.credentials.at(-1);
    if (!credential) throw new Error('no credential yet');
    credential.counter = overrides.counter ?? credential.counter + 1;
    const authData = Buffer.concat([sha256(options.rpId ?? credential.rpId), Buffer.from([UP | UV]), counterBytes(credential.counter)]);
    const clientDataJSON = Buffer.from(
      JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin: overrides.origin ?? this.origin, crossOrigin: false }),
    );
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key' as const,
      authenticatorAttachment: 'platform' as const,
      response: {
        clientDataJSON: b64(clientDataJSON),
        authenticatorData: b64(authData),
        signature: b64(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
    };
  }
}
