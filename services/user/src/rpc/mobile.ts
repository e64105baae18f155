import type { MobileServiceServer } from '@spinroom/contracts/user/v1/mobile';
import type { createUnaryFactory } from '@spinroom/platform';
import type { Mobile } from '../mobile/build.js';
import { RECENT_VALIDATIONS_KEPT } from '../domain/mobile/validation.js';
import { ALLOWED_LINE_TYPES, VOIP_LINE_TYPES } from '../domain/mobile/phones.js';
import { requireAdmin } from '../domain/mobile/validation.js';

/** gRPC handlers of spinroom.user.v1.MobileService: validate the caller, delegate to the domain. */
export function mobileHandlers(deps: Mobile & { unary: ReturnType<typeof createUnaryFactory> }): MobileServiceServer {
  const { mobileAuth, validator, codes, identities, unary } = deps;
  return {
    sendCode: unary.public(async (request) => mobileAuth.sendCode(request.phone, request.channel)),
    verifyCode: unary.public(async (request) => mobileAuth.verifyCode(request.phone, request.code)),
    addWhitelistedPhone: unary(async (request, context) => ({
      entry: await mobileAuth.whitelist(context.caller, request.phone, request.note),
    })),
    removeWhitelistedPhone: unary(async (request, context) => {
      await mobileAuth.removeFromWhitelist(context.caller, request.id);
      return {};
    }),
    validatePhone: unary(async (request, context) => ({ validation: await validator.validateFor(context.caller, request.phone) })),
    listRecentValidations: unary(async (request, context) => ({
      validations: await validator.recents(context.caller, request.limit),
    })),
    clearRecentValidations: unary(async (_request, context) => ({ cleared: await validator.clearRecents(context.caller) })),
    getFraudConstants: unary(async (_request, context) => {
      requireAdmin(context.caller);
      const { sends, failures } = codes;
      return {
        maxCodesPerPhone: sends.settings.points,
        codesWindowSeconds: sends.settings.durationSeconds,
        maxCodeChecksPerPhone: failures.settings.points,
        codeChecksWindowSeconds: failures.settings.durationSeconds,
        allowedLineTypes: [...ALLOWED_LINE_TYPES],
        voipLineTypes: [...VOIP_LINE_TYPES],
        recentValidationsKept: RECENT_VALIDATIONS_KEPT,
        maxValidationsPerCaller: validator.perCaller.settings.points,
        validationsWindowSeconds: validator.perCaller.settings.durationSeconds,
      };
    }),
    listPhoneNumbers: unary(async (request, context) => mobileAuth.listPhoneNumbers(context.caller, request)),
    createPhoneNumber: unary(async (request, context) => ({
      phoneNumber: await mobileAuth.addPhoneNumber(context.caller, request.userUuid, request.phone),
    })),
    getPhoneNumber: unary(async (request, context) => ({ phoneNumber: await mobileAuth.phoneNumber(context.caller, request.id) })),
    deletePhoneNumber: unary(async (request, context) => {
      await mobileAuth.deletePhoneNumber(context.caller, request.id);
      return {};
    }),
    requestIdentityVerification: unary(async (request, context) => identities.request(context.caller, request.phone, request.channel)),
    verifyIdentity: unary(async (request, context) => ({
      identity: await identities.verify(context.caller, request.phone, request.code),
    })),
    createUserIdentity: unary(async (request, context) => ({ identity: await identities.create(context.caller, request) })),
    listUserIdentities: unary(async (request, context) => ({ identities: await identities.list(context.caller, request) })),
    deleteUserIdentity: unary(async (request, context) => {
      await identities.delete(context.caller, request.id);
      return {};
    }),
  };
}
