import {
  AgoraRole,
  MusicProvider,
  ProviderClient,
  type DiscordCode,
  type ProviderAccessToken,
  type ProvidersServiceServer,
} from '@spinroom/contracts/user/v1/providers';
import { badRequest, forbidden, type Caller, type createUnaryFactory, type TokenIssuer } from '@spinroom/platform';
import type { Accounts } from '../domain/accounts.js';
import type { AgoraTokens } from '../domain/providers/agora.js';
import { createChatUsers, issueGhostChatToken } from '../domain/providers/chat-users.js';
import type { DiscordAccounts } from '../domain/providers/discord.js';
import { checkLinker, checkTokenReader, type AccessTokenView, type ProviderLinks } from '../domain/providers/links.js';
import type { LinkedProvider, ProviderClient as ClientName } from '../domain/providers/ports.js';
import { toProfileMessage } from './user-service.js';

const PROVIDERS: Partial<Record<MusicProvider, LinkedProvider>> = {
  [MusicProvider.MUSIC_PROVIDER_APPLE]: 'apple',
  [MusicProvider.MUSIC_PROVIDER_SOUNDCLOUD]: 'soundcloud',
  [MusicProvider.MUSIC_PROVIDER_SPOTIFY]: 'spotify',
  [MusicProvider.MUSIC_PROVIDER_YOUTUBE]: 'youtube',
};

const MUSIC_PROVIDERS: Record<LinkedProvider, MusicProvider> = {
  apple: MusicProvider.MUSIC_PROVIDER_APPLE,
  soundcloud: MusicProvider.MUSIC_PROVIDER_SOUNDCLOUD,
  spotify: MusicProvider.MUSIC_PROVIDER_SPOTIFY,
  youtube: MusicProvider.MUSIC_PROVIDER_YOUTUBE,
};

function provider<P extends LinkedProvider>(value: MusicProvider, allowed: readonly P[]): P {
  const name = PROVIDERS[value] as P | undefined;
  if (!name || !allowed.includes(name)) throw badRequest(`provider must be one of ${allowed.join(', ')}`);
  return name;
}

/** The app a link belongs to: web unless the mobile app's is asked for. */
function client(value: ProviderClient): ClientName {
  return value === ProviderClient.PROVIDER_CLIENT_MOBILE ? 'mobile' : 'web';
}

const token = (view: AccessTokenView): { token: ProviderAccessToken } => ({ token: view });

function code(value: DiscordCode | undefined): { code: string; redirectUri: string } {
  if (!value) throw badRequest('code is required');
  return value;
}

/** Discord linking and sign-in are for accounts that last. */
function checkSignedIn(caller: Caller): void {
  if (caller.role === 'guest' || caller.role === 'service') throw forbidden('Only signed-in users can link Discord');
}

/** gRPC handlers of spinroom.user.v1.ProvidersService: validate the caller, delegate to the domain. */
export function providersHandlers(deps: {
  links: ProviderLinks;
  discord: DiscordAccounts;
  agora: AgoraTokens;
  accounts: Accounts;
  tokens: TokenIssuer;
  unary: ReturnType<typeof createUnaryFactory>;
}): ProvidersServiceServer {
  const { links, discord, agora, accounts, tokens, unary } = deps;
  return {
    saveAppleUserToken: unary(async (request, context) => {
      checkLinker(context.caller);
      await links.saveAppleUserToken(context.caller.userUuid, request.userToken);
      return {};
    }),
    getAppleUserToken: unary(async (request, context) => {
      checkTokenReader(context.caller, request.userUuid, false);
      return links.appleUserToken(request.userUuid);
    }),
    getAppleDeveloperToken: unary(async (_request, context) => {
      checkLinker(context.caller);
      return { developerToken: await links.appleDeveloperToken() };
    }),
    exchangeCode: unary(async (request, context) => {
      checkLinker(context.caller);
      const name = provider(request.provider, ['spotify', 'youtube'] as const);
      return token(await links.exchangeCode(context.caller.userUuid, name, request));
    }),
    refreshLink: unary(async (request, context) => {
      checkLinker(context.caller);
      return token(await links.refresh(context.caller.userUuid, provider(request.provider, ['spotify', 'youtube', 'soundcloud'] as const)));
    }),
    saveRefreshToken: unary(async (request, context) => {
      checkLinker(context.caller);
      const name = provider(request.provider, ['soundcloud'] as const);
      return token(await links.saveRefreshToken(context.caller.userUuid, name, client(request.client), request.refreshToken));
    }),
    deleteLink: unary(async (request, context) => {
      checkLinker(context.caller);
      return {
        deleted: await links.deleteLink(
          context.caller.userUuid,
          provider(request.provider, ['spotify', 'youtube', 'soundcloud', 'apple'] as const),
        ),
      };
    }),
    listLinks: unary(async (_request, context) => {
      checkLinker(context.caller);
      return {
        links: (await links.links(context.caller.userUuid)).map((link) => ({
          provider: MUSIC_PROVIDERS[link.provider],
          client: link.client === 'mobile' ? ProviderClient.PROVIDER_CLIENT_MOBILE : ProviderClient.PROVIDER_CLIENT_WEB,
          updatedAt: link.updatedAt,
        })),
      };
    }),
    getAccessToken: unary(async (request, context) => {
      checkTokenReader(context.caller, request.userUuid, request.serviceOnly);
      const name = provider(request.provider, ['spotify', 'youtube', 'soundcloud'] as const);
      return token(await links.accessToken(request.userUuid, name, client(request.client)));
    }),
    getPublicToken: unary(async (request) => {
      const name = provider(request.provider, ['soundcloud'] as const);
      return token(await links.publicToken(name, client(request.client)));
    }),
    discordAuth: unary.public(async (request) => discord.signIn(code(request.code))),
    exchangeDiscordCode: unary.public(async (request) => {
      const user = await discord.exchange(code(request.code));
      return { user: { ...user, globalName: user.globalName ?? '', email: user.email ?? '' } };
    }),
    linkDiscord: unary(async (request, context) => {
      checkSignedIn(context.caller);
      return { profile: toProfileMessage(await discord.link(context.caller.userUuid, code(request.code))) };
    }),
    issueAgoraToken: unary(async (request, context) => {
      const role = { [AgoraRole.AGORA_ROLE_PUBLISHER]: 'PUBLISHER', [AgoraRole.AGORA_ROLE_SUBSCRIBER]: 'SUBSCRIBER' } as const;
      const name = role[request.role as AgoraRole.AGORA_ROLE_PUBLISHER | AgoraRole.AGORA_ROLE_SUBSCRIBER];
      if (!name) throw badRequest('role must be PUBLISHER or SUBSCRIBER');
      return agora.issue(context.caller, request.channelName, name);
    }),
    issueGhostChatToken: unary(async (_request, context) => {
      if (context.caller.role !== 'service') await accounts.session(context.caller.userUuid); // 401 for a user that is gone
      return issueGhostChatToken(tokens, context.caller);
    }),
    createChatUsers: unary(async (request, context) => createChatUsers(context.caller, accounts, request.userUuids)),
  };
}
