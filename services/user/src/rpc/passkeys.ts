import type { Passkey as PasskeyMessage, PasskeysServiceServer } from '@spinroom/contracts/user/v1/passkeys';
import { forbidden, type Caller, type createUnaryFactory } from '@spinroom/platform';
import type { Passkey, Passkeys } from '../domain/passkeys/passkeys.js';

function toPasskeyMessage(passkey: Passkey): PasskeyMessage {
  return {
    id: passkey.id,
    name: passkey.name,
    createdAt: passkey.createdAt,
    lastUsedAt: passkey.lastUsedAt ?? undefined,
    backedUp: passkey.backedUp,
  };
}

/** Passkeys belong to signed-up people: not guests, bots or services. */
function person(caller: Caller): string {
  if (caller.kind !== 'user') throw forbidden();
  return caller.userUuid;
}

/** gRPC handlers of spinroom.user.v1.PasskeysService: check the caller, delegate to the domain (domain/passkeys). */
export function passkeysHandlers(deps: { passkeys: Passkeys; unary: ReturnType<typeof createUnaryFactory> }): PasskeysServiceServer {
  const { passkeys, unary } = deps;
  return {
    getRegistrationOptions: unary(async (_request, context) => ({
      optionsJson: JSON.stringify(await passkeys.registrationOptions(person(context.caller))),
    })),
    registerPasskey: unary(async (request, context) => ({
      passkey: toPasskeyMessage(
        await passkeys.register(person(context.caller), { responseJson: request.responseJson, name: request.name }),
      ),
    })),
    getAuthenticationOptions: unary.public(async () => ({
      optionsJson: JSON.stringify(await passkeys.authenticationOptions()),
    })),
    signInWithPasskey: unary.public(async (request) => ({ grant: await passkeys.signIn(request.responseJson) })),
    listPasskeys: unary(async (_request, context) => ({
      passkeys: (await passkeys.list(person(context.caller))).map(toPasskeyMessage),
    })),
    deletePasskey: unary(async (request, context) => {
      await passkeys.delete(person(context.caller), request.id);
      return {};
    }),
  };
}
