import { UserKind, type UserProfile, type UserServiceServer, type UpdateOwnProfileRequest } from '@spinroom/contracts/user/v1/user_service';
import { forbidden, type createUnaryFactory, type TokenIssuer } from '@spinroom/platform';
import type { Accounts } from '../domain/accounts.js';
import type { LoginLockout } from '../domain/login-lockout.js';
import type { ProfilePatch } from '../domain/profiles.js';
import { issueChatToken, type ServiceTokens } from '../domain/service-tokens.js';
import type { User } from '../domain/user.js';

const KIND: Record<User['kind'], UserKind> = {
  user: UserKind.USER_KIND_USER,
  guest: UserKind.USER_KIND_GUEST,
  bot: UserKind.USER_KIND_BOT,
};

export function toProfileMessage(user: User): UserProfile {
  const optional = <T>(value: T | null) => value ?? undefined;
  return {
    id: user.id,
    uuid: user.uuid,
    color: user.color,
    avatarId: user.avatarId,
    badges: user.badges,
    createdAt: user.createdAt,
    nickname: user.nickname,
    discord: optional(user.discord),
    discordNickname: optional(user.discordNickname),
    firstName: optional(user.firstName),
    lastName: optional(user.lastName),
    pronoun: optional(user.pronoun),
    displayPronouns: user.displayPronouns,
    songOfTheWeek: optional(user.songOfTheWeek),
    song: optional(user.song),
    coverPicture: optional(user.coverPicture),
    facebook: optional(user.facebook),
    instagram: optional(user.instagram),
    twitter: optional(user.twitter),
    snapchat: optional(user.snapchat),
    tiktok: optional(user.tiktok),
    priceForGig: optional(user.priceForGig),
    zodiac: optional(user.zodiac),
    kind: KIND[user.kind],
  };
}

export function toProfilePatch(request: UpdateOwnProfileRequest): ProfilePatch {
  // proto3 optional: unset fields are undefined and leave the profile as it is.
  const { clearSong, ...fields } = request;
  const patch = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as ProfilePatch;
  if (clearSong) patch.song = null;
  return patch;
}

/** gRPC handlers of spinroom.user.v1.UserService: validate the caller, delegate to the domain. */
export function userServiceHandlers(deps: {
  accounts: Accounts;
  logIns: LoginLockout;
  tokens: TokenIssuer;
  serviceTokens: ServiceTokens;
  unary: ReturnType<typeof createUnaryFactory>;
}): UserServiceServer {
  const { accounts, logIns, tokens, serviceTokens, unary } = deps;
  return {
    signUp: unary.public(async (request) => ({ grant: await accounts.signUp(request) })),
    logIn: unary.public(async (request) => ({ grant: await logIns.logIn(request) })),
    createGuest: unary.public(async () => ({ grant: await accounts.createGuest() })),
    getSession: unary(async (_request, context) => {
      const user = await accounts.session(context.caller.userUuid);
      return { userUuid: user.uuid, kind: KIND[user.kind], roles: user.roles };
    }),
    getPublicKey: unary.public(async () => ({ publicKeyPem: tokens.publicKeyPem, keyId: tokens.keyId, keys: tokens.publishedKeys })),
    getOwnProfile: unary(async (_request, context) => ({
      profile: toProfileMessage(await accounts.profile(context.caller.userUuid)),
    })),
    updateOwnProfile: unary(async (request, context) => {
      const caller = context.caller;
      if (caller.kind === 'guest') throw forbidden('Guests cannot edit a profile');
      return { profile: toProfileMessage(await accounts.updateProfile(caller.userUuid, toProfilePatch(request))) };
    }),
    getProfile: unary(async (request) => {
      return { profile: toProfileMessage(await accounts.profile(request.userUuid)) };
    }),
    batchGetProfiles: unary(async (request) => {
      return { profiles: (await accounts.profiles(request.userUuids)).map(toProfileMessage) };
    }),
    issueServiceToken: unary.public(async (request) => serviceTokens.issue(request.serviceName, request.clientSecret)),
    issueChatToken: unary(async (_request, context) => {
      const caller = context.caller;
      if (caller.role !== 'service') await accounts.session(caller.userUuid); // 401 for a user that is gone
      return issueChatToken(tokens, caller);
    }),
  };
}
