import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { decodeClientDataJSON, isoBase64URL, isoUint8Array } from '@simplewebauthn/server/helpers';
import { badRequest, forbidden, isUuid, notFound, unauthorized } from '@spinroom/platform';
import { z } from 'zod';
import type { AccessGrant } from '../accounts.js';
import type { User } from '../user.js';

export const REGISTRATION_FAILED = 'Passkey registration failed';
export const PASSKEY_TAKEN = 'This passkey is already registered';
export const SIGN_IN_FAILED = 'Passkey sign-in failed';
export const PASSKEY_NOT_FOUND = 'Passkey not found';

/** How long a ceremony's challenge can be answered; the browser's own timeout is shorter. */
export const CHALLENGE_TTL_SECONDS = 300;
const CEREMONY_TIMEOUT_MS = 120_000;
export const PASSKEY_NAME_MAX = 64;

export interface Passkey {
  id: string;
  userUuid: string;
  /** The WebAuthn credential id, base64url. */
  credentialId: string;
  publicKey: Uint8Array;
  /** The authenticator's signature counter at its last use (0 for authenticators that keep none). */
  counter: number;
  transports: string[];
  name: string;
  backedUp: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export type NewPasskey = Omit<Passkey, 'id' | 'lastUsedAt'>;

export class PasskeyTakenError extends Error {}

/** Where passkeys are kept (db/passkeys-store.ts). */
export interface PasskeyStore {
  /** Throws PasskeyTakenError when the credential id is already someone's. */
  add(passkey: NewPasskey): Promise<Passkey>;
  listOf(userUuid: string): Promise<Passkey[]>;
  findByCredentialId(credentialId: string): Promise<Passkey | null>;
  /**
   * Records a sign-in: the new counter and the time, only if the counter is
   * still `seenCounter` (false otherwise: another sign-in used it meanwhile).
   */
  recordUse(id: string, seenCounter: number, newCounter: number, at: Date): Promise<boolean>;
  /** False when the user has no such passkey. */
  delete(userUuid: string, id: string): Promise<boolean>;
}

/** What a challenge was issued for. */
export type Ceremony = { kind: 'registration'; userUuid: string } | { kind: 'authentication' };

/** Challenges waiting for their answer (Redis: db/passkeys-challenges.ts). */
export interface ChallengeStore {
  put(challenge: string, ceremony: Ceremony, ttlSeconds: number): Promise<void>;
  /** Takes the challenge out: the first caller gets its ceremony, every later one (or after expiry) null. */
  take(challenge: string): Promise<Ceremony | null>;
}

export interface RelyingParty {
  rpId: string;
  rpName: string;
  origins: string[];
}

export interface PasskeysDeps {
  store: PasskeyStore;
  challenges: ChallengeStore;
  relyingParty: RelyingParty;
  /** The account of a uuid (404 when gone). */
  account(userUuid: string): Promise<User>;
  /** An access grant as a login answers it; refuses banned and deactivated accounts. */
  grant(user: User): Promise<AccessGrant>;
}

// Only what the rules read is checked here; @simplewebauthn/server verifies the rest.
const b64url = z.string().min(1).max(16_384);
const RegistrationResponse = z.object({
  id: b64url,
  rawId: b64url,
  type: z.literal('public-key'),
  response: z.looseObject({
    clientDataJSON: b64url,
    attestationObject: b64url,
    transports: z.array(z.string().max(32)).max(10).optional(),
  }),
  clientExtensionResults: z.looseObject({}).default({}),
});
const AuthenticationResponse = z.object({
  id: b64url,
  rawId: b64url,
  type: z.literal('public-key'),
  response: z.looseObject({ clientDataJSON: b64url, authenticatorData: b64url, signature: b64url, userHandle: b64url.optional() }),
  clientExtensionResults: z.looseObject({}).default({}),
});

/** Parses a ceremony's JSON answer, or null when it is not one. */
function parse<T>(schema: z.ZodType<T>, json: string): T | null {
  try {
    const result = schema.safeParse(JSON.parse(json));
    return result.success ? result.data : null;
  } catch {
    return null;
  }
}

/** The challenge the browser signed, read from clientDataJSON (the library checks it again against the one taken). */
function challengeOf(clientDataJSON: string): string | null {
  try {
    const challenge = decodeClientDataJSON(clientDataJSON).challenge;
    return typeof challenge === 'string' && challenge.length > 0 && challenge.length <= 512 ? challenge : null;
  } catch {
    return null;
  }
}

/** The WebAuthn user handle of an account: its uuid's bytes, so a sign-in's userHandle names the owner. */
function userHandleOf(userUuid: string): Uint8Array<ArrayBuffer> {
  return isoUint8Array.fromUTF8String(userUuid);
}

export function passkeyName(input: string | undefined, existing: number): string {
  const name = (input ?? '').trim();
  if (name.length > PASSKEY_NAME_MAX) throw badRequest(`name must be at most ${PASSKEY_NAME_MAX} characters`);
  return name || `Passkey ${existing + 1}`;
}

/**
 * Passkeys: registration for signed-in people, sign-in for anyone holding one.
 * Each challenge is answered once: it is taken out of the store before the
 * answer is verified, so a replayed answer finds nothing.
 */
export class Passkeys {
  constructor(private readonly deps: PasskeysDeps) {}

  async registrationOptions(userUuid: string): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const { store, challenges, relyingParty } = this.deps;
    const user = await this.deps.account(userUuid);
    const existing = await store.listOf(user.uuid);
    const options = await generateRegistrationOptions({
      rpName: relyingParty.rpName,
      rpID: relyingParty.rpId,
      userName: user.email ?? user.nickname,
      userDisplayName: user.nickname,
      userID: userHandleOf(user.uuid),
      attestationType: 'none',
      timeout: CEREMONY_TIMEOUT_MS,
      // The authenticator refuses to make a second passkey for this account.
      excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
      // Discoverable: signing in needs no email first.
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    await challenges.put(options.challenge, { kind: 'registration', userUuid: user.uuid }, CHALLENGE_TTL_SECONDS);
    return options;
  }

  async register(userUuid: string, input: { responseJson: string; name?: string }): Promise<Passkey> {
    const { store, challenges, relyingParty } = this.deps;
    const response = parse<RegistrationResponseJSON>(RegistrationResponse, input.responseJson);
    const challenge = response && challengeOf(response.response.clientDataJSON);
    if (!response || !challenge) throw badRequest(REGISTRATION_FAILED);
    const ceremony = await challenges.take(challenge);
    if (ceremony?.kind !== 'registration' || ceremony.userUuid !== userUuid) throw badRequest(REGISTRATION_FAILED);
    const existing = await store.listOf(userUuid);
    const name = passkeyName(input.name, existing.length);
    let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verified = await verifyRegistrationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: relyingParty.origins,
        expectedRPID: relyingParty.rpId,
        requireUserVerification: false,
      });
    } catch {
      throw badRequest(REGISTRATION_FAILED);
    }
    if (!verified.verified) throw badRequest(REGISTRATION_FAILED);
    const { credential, credentialBackedUp } = verified.registrationInfo;
    try {
      return await store.add({
        userUuid,
        credentialId: credential.id,
        publicKey: credential.publicKey,
        counter: credential.counter,
        transports: credential.transports ?? [],
        name,
        backedUp: credentialBackedUp,
        createdAt: new Date(),
      });
    } catch (error) {
      if (error instanceof PasskeyTakenError) throw forbidden(PASSKEY_TAKEN);
      throw error;
    }
  }

  async authenticationOptions(): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const { challenges, relyingParty } = this.deps;
    const options = await generateAuthenticationOptions({
      rpID: relyingParty.rpId,
      userVerification: 'preferred',
      timeout: CEREMONY_TIMEOUT_MS,
    });
    await challenges.put(options.challenge, { kind: 'authentication' }, CHALLENGE_TTL_SECONDS);
    return options;
  }

  /** One refusal for every failure: a caller learns nothing about which passkeys exist. */
  async signIn(responseJson: string): Promise<AccessGrant> {
    const { store, challenges, relyingParty } = this.deps;
    const response = parse<AuthenticationResponseJSON>(AuthenticationResponse, responseJson);
    const challenge = response && challengeOf(response.response.clientDataJSON);
    if (!response || !challenge) throw unauthorized(SIGN_IN_FAILED);
    const ceremony = await challenges.take(challenge);
    if (ceremony?.kind !== 'authentication') throw unauthorized(SIGN_IN_FAILED);
    const passkey = await store.findByCredentialId(response.id);
    if (!passkey) throw unauthorized(SIGN_IN_FAILED);
    const handle = response.response.userHandle;
    if (handle && !isoUint8Array.areEqual(isoBase64URL.toBuffer(handle), userHandleOf(passkey.userUuid))) {
      throw unauthorized(SIGN_IN_FAILED);
    }
    let newCounter: number;
    try {
      const verified = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: relyingParty.origins,
        expectedRPID: relyingParty.rpId,
        credential: {
          id: passkey.credentialId,
          publicKey: passkey.publicKey as Uint8Array<ArrayBuffer>,
          counter: passkey.counter,
          transports: passkey.transports,
        },
        requireUserVerification: false,
      });
      if (!verified.verified) throw unauthorized(SIGN_IN_FAILED);
      newCounter = verified.authenticationInfo.newCounter;
    } catch {
      // Among the refusals: a counter not above the stored one (a cloned authenticator).
      throw unauthorized(SIGN_IN_FAILED);
    }
    if (!(await store.recordUse(passkey.id, passkey.counter, newCounter, new Date()))) throw unauthorized(SIGN_IN_FAILED);
    return this.deps.grant(await this.deps.account(passkey.userUuid));
  }

  async list(userUuid: string): Promise<Passkey[]> {
    return this.deps.store.listOf(userUuid);
  }

  async delete(userUuid: string, id: string): Promise<void> {
    if (!isUuid(id) || !(await this.deps.store.delete(userUuid, id))) throw notFound(PASSKEY_NOT_FOUND);
  }
}
