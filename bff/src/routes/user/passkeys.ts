import type { Passkey, PasskeysServiceClient } from '@spinroom/contracts/user/v1/passkeys';
import type { PromiseClient } from '@spinroom/platform/core';
import { z } from 'zod';
import { clientAddress, type BffLimits } from '../../http/limits.js';
import { route, type RouteDeps } from '../../http/route.js';
import { present } from '../../http/upstream.js';
import { AccessGrantSchema } from './schemas.js';

// Spinroom's own paths: spec 000 has no passkeys.
const PASSKEYS = '/api/user-service/passkeys';

// The WebAuthn JSON encodings (what @simplewebauthn/browser answers); the user service verifies them.
// Fields the server does not read (the response's publicKey, other extensions) are dropped here.
const b64url = z.string().max(16_384);
const extensions = z.object({ credProps: z.object({ rk: z.boolean().optional() }).optional() }).default({});
const RegistrationResponseSchema = z
  .object({
    id: b64url,
    rawId: b64url,
    type: z.literal('public-key'),
    authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
    response: z.object({
      clientDataJSON: b64url,
      attestationObject: b64url,
      transports: z.array(z.string().max(32)).max(10).optional(),
    }),
    clientExtensionResults: extensions,
  })
  .openapi('PasskeyRegistrationResponse');
const AuthenticationResponseSchema = z
  .object({
    id: b64url,
    rawId: b64url,
    type: z.literal('public-key'),
    authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
    response: z.object({ clientDataJSON: b64url, authenticatorData: b64url, signature: b64url, userHandle: b64url.optional() }),
    clientExtensionResults: extensions,
  })
  .openapi('PasskeyAuthenticationResponse');
const CreationOptionsSchema = z
  .looseObject({ challenge: z.string(), rp: z.looseObject({ id: z.string().optional(), name: z.string() }) })
  .openapi('PasskeyCreationOptions', { description: 'PublicKeyCredentialCreationOptionsJSON (WebAuthn), for startRegistration' });
const RequestOptionsSchema = z
  .looseObject({ challenge: z.string(), rpId: z.string().optional() })
  .openapi('PasskeyRequestOptions', { description: 'PublicKeyCredentialRequestOptionsJSON (WebAuthn), for startAuthentication' });
const PasskeySchema = z
  .object({ id: z.uuid(), name: z.string(), createdAt: z.string(), lastUsedAt: z.string().nullable(), backedUp: z.boolean() })
  .openapi('Passkey');

function toPasskeyJson(message: Passkey): z.input<typeof PasskeySchema> {
  return {
    id: message.id,
    name: message.name,
    createdAt: present(message.createdAt).toISOString(),
    lastUsedAt: message.lastUsedAt?.toISOString() ?? null,
    backedUp: message.backedUp,
  };
}

/** The passkeys area of /api/user-service (services/user/src/rpc/passkeys.ts): WebAuthn registration and sign-in. */
export function passkeysRoutes(
  deps: RouteDeps,
  passkeys: PromiseClient<PasskeysServiceClient>,
  limits: Pick<BffLimits, 'loginFailures'>,
): void {
  route(deps, {
    method: 'get',
    path: PASSKEYS,
    summary: "The caller's passkeys, newest first (not in the spec; Spinroom's)",
    tags: ['passkeys'],
    response: z.array(PasskeySchema),
    errors: [403],
    handler: async () => (await passkeys.listPasskeys({})).passkeys.map(toPasskeyJson),
  });

  route(deps, {
    method: 'post',
    path: `${PASSKEYS}/registration-options`,
    summary: 'Options for registering a new passkey of the caller (its challenge is single use, 5 minutes)',
    tags: ['passkeys'],
    response: CreationOptionsSchema,
    errors: [403],
    handler: async () => JSON.parse((await passkeys.getRegistrationOptions({})).optionsJson) as z.input<typeof CreationOptionsSchema>,
  });

  route(deps, {
    method: 'post',
    path: `${PASSKEYS}/register`,
    summary: "Keep a passkey: the authenticator's answer to the caller's registration options",
    tags: ['passkeys'],
    status: 201,
    body: z.object({ name: z.string().max(64).optional(), response: RegistrationResponseSchema }).openapi('PasskeyRegistration'),
    response: PasskeySchema,
    errors: [403],
    handler: async ({ body }) =>
      toPasskeyJson(
        present((await passkeys.registerPasskey({ responseJson: JSON.stringify(body.response), name: body.name ?? '' })).passkey),
      ),
  });

  route(deps, {
    method: 'delete',
    path: `${PASSKEYS}/{id}`,
    summary: "Delete one of the caller's passkeys",
    tags: ['passkeys'],
    params: z.object({ id: z.string().max(64) }),
    response: z.object({}).openapi('Done'),
    errors: [403, 404],
    handler: async ({ params }) => {
      await passkeys.deletePasskey({ id: params.id });
      return {};
    },
  });

  route(deps, {
    method: 'post',
    path: `${PASSKEYS}/authentication-options`,
    summary: 'Options for signing in with a passkey (its challenge is single use, 5 minutes)',
    tags: ['passkeys', 'auth'],
    auth: 'public',
    response: RequestOptionsSchema,
    handler: async () => JSON.parse((await passkeys.getAuthenticationOptions({})).optionsJson) as z.input<typeof RequestOptionsSchema>,
  });

  route(deps, {
    method: 'post',
    path: `${PASSKEYS}/sign-in`,
    summary: "Trade a passkey's signed challenge for an access token, as a login does (failures count as failed logins from the address)",
    tags: ['passkeys', 'auth'],
    auth: 'public',
    body: z.object({ response: AuthenticationResponseSchema }).openapi('PasskeySignIn'),
    response: AccessGrantSchema,
    errors: [401, 403, 429],
    handler: async ({ body, req }) =>
      limits.loginFailures.attempt(clientAddress(req), async () =>
        present((await passkeys.signInWithPasskey({ responseJson: JSON.stringify(body.response) })).grant),
      ),
  });
}
