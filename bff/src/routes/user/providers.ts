import {
  AgoraRole,
  MusicProvider,
  ProviderClient,
  type ProviderAccessToken,
  type ProvidersServiceClient,
} from '@spinroom/contracts/user/v1/providers';
import type { PromiseClient } from '@spinroom/platform/core';
import { z } from 'zod';
import { clientAddress, type BffLimits } from '../../http/limits.js';
import { route, type RouteDeps } from '../../http/route.js';
import { present } from '../../http/upstream.js';
import { toProfileJson } from './profile-view.js';
import { AccessGrantSchema, UserProfileSchema } from './schemas.js';

export type ProvidersClient = PromiseClient<ProvidersServiceClient>;

const BASE = '/api/user-service';

const ProviderTokenSchema = z
  .object({
    accessToken: z.string(),
    /** Seconds left. */
    expiresIn: z.number().int(),
    scope: z.string(),
  })
  .openapi('ProviderAccessToken');

const CodeExchangeSchema = z
  .object({
    code: z.string().min(1).max(2048),
    redirectUri: z.string().min(1).max(2048),
    codeVerifier: z.string().min(43).max(128).optional(),
  })
  .openapi('ProviderCodeExchange');

const DiscordCodeSchema = z.object({ code: z.string().min(1).max(512), redirectUri: z.string().min(1).max(2048) }).openapi('DiscordCode');

const UserIdParams = z.object({ id: z.uuid() });
const MobileQuery = z.object({ mobile: z.enum(['true', 'false']).optional() });

function tokenJson(answer: { token?: ProviderAccessToken }): z.infer<typeof ProviderTokenSchema> {
  const token = present(answer.token);
  return { accessToken: token.accessToken, expiresIn: token.expiresInSeconds, scope: token.scope };
}

const PROVIDER_NAMES: Partial<Record<MusicProvider, 'apple' | 'soundcloud' | 'spotify' | 'youtube'>> = {
  [MusicProvider.MUSIC_PROVIDER_APPLE]: 'apple',
  [MusicProvider.MUSIC_PROVIDER_SOUNDCLOUD]: 'soundcloud',
  [MusicProvider.MUSIC_PROVIDER_SPOTIFY]: 'spotify',
  [MusicProvider.MUSIC_PROVIDER_YOUTUBE]: 'youtube',
};

const client = (mobile: boolean) => (mobile ? ProviderClient.PROVIDER_CLIENT_MOBILE : ProviderClient.PROVIDER_CLIENT_WEB);

/**
 * Music providers (Apple, SoundCloud, Spotify, YouTube), Discord sign-in and
 * linking, Agora voice and video tokens, and the chat provider's ghost token
 * and users. Who may call what is the user service's to decide.
 */
export function providersRoutes(deps: RouteDeps, providers: ProvidersClient, limits: Pick<BffLimits, 'loginFailures'>): void {
  const tags = ['music providers'];

  route(deps, {
    method: 'post',
    path: `${BASE}/apple/user-token`,
    summary: "Stores the caller's Apple Music user token (encrypted)",
    tags,
    body: z.object({ userToken: z.string().min(1).max(8192) }),
    status: 201,
    response: z.object({ saved: z.literal(true) }),
    errors: [403, 503],
    handler: async ({ body }) => {
      await providers.saveAppleUserToken({ userToken: body.userToken });
      return { saved: true as const };
    },
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/apple/user-token/{id}`,
    summary: "A user's Apple Music user token and a developer token (the owner or a service)",
    tags,
    params: UserIdParams,
    response: z.object({ userToken: z.string(), developerToken: z.string() }),
    errors: [403, 404, 503],
    handler: async ({ params }) => providers.getAppleUserToken({ userUuid: params.id }),
  });

  // Spinroom's own paths (spec 000 has neither): MusicKit on the Web must be configured with a developer
  // token before it can authorize the user, so linking needs one before there is a user token to store;
  // and an Apple Music link can be undone as the others are.
  route(deps, {
    method: 'get',
    path: `${BASE}/apple/developer-token`,
    summary: "A MusicKit developer token, to authorize Apple Music in the browser before linking (Spinroom's own path)",
    tags,
    response: z.object({ developerToken: z.string() }).openapi('AppleDeveloperToken'),
    errors: [403, 503],
    handler: async () => providers.getAppleDeveloperToken({}),
  });
  route(deps, {
    method: 'delete',
    path: `${BASE}/apple/user-token`,
    summary: "Unlinks the caller's Apple Music account (its Music User Token is deleted; Spinroom's own path)",
    tags,
    response: z.object({ deleted: z.boolean() }),
    errors: [403],
    handler: async () => providers.deleteLink({ provider: MusicProvider.MUSIC_PROVIDER_APPLE }),
  });

  for (const mobile of [false, true]) {
    const prefix = `${BASE}/soundcloud${mobile ? '/mobile' : ''}`;
    route(deps, {
      method: 'post',
      path: `${prefix}/refresh-token`,
      summary: `Links SoundCloud with a refresh token from its ${mobile ? 'mobile' : 'web'} app (used once to prove it)`,
      tags,
      body: z.object({ refreshToken: z.string().min(1).max(4096) }),
      response: ProviderTokenSchema,
      errors: [403, 502, 503],
      handler: async ({ body }) =>
        tokenJson(
          await providers.saveRefreshToken({
            provider: MusicProvider.MUSIC_PROVIDER_SOUNDCLOUD,
            client: client(mobile),
            refreshToken: body.refreshToken,
          }),
        ),
    });
    route(deps, {
      method: 'get',
      path: `${prefix}/public-token`,
      summary: `SoundCloud's app token for public reads (${mobile ? 'mobile' : 'web'} app; client credentials)`,
      tags,
      response: ProviderTokenSchema,
      errors: [502, 503],
      handler: async () =>
        tokenJson(await providers.getPublicToken({ provider: MusicProvider.MUSIC_PROVIDER_SOUNDCLOUD, client: client(mobile) })),
    });
  }

  route(deps, {
    method: 'post',
    path: `${BASE}/soundcloud/access-token/refresh`,
    summary:
      "A new SoundCloud access token for the caller's web link now, though the last has not expired: SoundCloud answers 403 to a token it stopped accepting, and a client retries once with a refreshed one (spec 002); 404 when not linked",
    tags,
    response: ProviderTokenSchema,
    errors: [403, 404, 502, 503],
    handler: async () => tokenJson(await providers.refreshLink({ provider: MusicProvider.MUSIC_PROVIDER_SOUNDCLOUD })),
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/soundcloud/access-token/{id}`,
    summary: "A user's SoundCloud access token, refreshed when expired (the owner or a service)",
    tags,
    params: UserIdParams,
    query: MobileQuery,
    response: ProviderTokenSchema,
    errors: [403, 404, 502, 503],
    handler: async ({ params, query }) =>
      tokenJson(
        await providers.getAccessToken({
          provider: MusicProvider.MUSIC_PROVIDER_SOUNDCLOUD,
          client: client(query.mobile === 'true'),
          userUuid: params.id,
          serviceOnly: false,
        }),
      ),
  });

  for (const [name, provider] of [
    ['spotify', MusicProvider.MUSIC_PROVIDER_SPOTIFY],
    ['youtube', MusicProvider.MUSIC_PROVIDER_YOUTUBE],
  ] as const) {
    const label = name === 'spotify' ? 'Spotify' : 'YouTube';
    route(deps, {
      method: 'post',
      path: `${BASE}/${name}/exchange-code`,
      summary: `Links ${label}: exchanges an OAuth authorization code and keeps the refresh token (encrypted)`,
      tags,
      body: CodeExchangeSchema,
      response: ProviderTokenSchema,
      errors: [403, 502, 503],
      handler: async ({ body }) =>
        tokenJson(
          await providers.exchangeCode({ provider, code: body.code, redirectUri: body.redirectUri, codeVerifier: body.codeVerifier ?? '' }),
        ),
    });
    route(deps, {
      method: 'post',
      path: `${BASE}/${name}/refresh-token`,
      summary: `A new ${label} access token for the caller's link`,
      tags,
      response: ProviderTokenSchema,
      errors: [403, 404, 502, 503],
      handler: async () => tokenJson(await providers.refreshLink({ provider })),
    });
  }

  // Spotify's is spec 000's; YouTube's and SoundCloud's (web app) are Spinroom's own, so every link the settings screen makes can be undone.
  for (const [name, label, provider] of [
    ['spotify', 'Spotify', MusicProvider.MUSIC_PROVIDER_SPOTIFY],
    ['youtube', 'YouTube', MusicProvider.MUSIC_PROVIDER_YOUTUBE],
    ['soundcloud', 'SoundCloud', MusicProvider.MUSIC_PROVIDER_SOUNDCLOUD],
  ] as const) {
    route(deps, {
      method: 'delete',
      path: `${BASE}/${name}/refresh-token`,
      summary: `Unlinks the caller's ${label} account (its tokens are deleted)`,
      tags,
      response: z.object({ deleted: z.boolean() }),
      errors: [403],
      handler: async () => providers.deleteLink({ provider }),
    });
  }

  route(deps, {
    method: 'get',
    path: `${BASE}/users/music-providers`,
    summary: "The caller's linked music providers, without tokens (Spinroom's own path: spec 000 lists none)",
    tags,
    response: z
      .object({
        links: z.array(
          z.object({
            provider: z.enum(['apple', 'soundcloud', 'spotify', 'youtube']),
            client: z.enum(['web', 'mobile']),
            /** When the link was made or its tokens last replaced. */
            updatedAt: z.string(),
          }),
        ),
      })
      .openapi('ProviderLinks'),
    errors: [403, 503],
    handler: async () => {
      const { links } = await providers.listLinks({});
      return {
        links: links.flatMap((link) => {
          const name = PROVIDER_NAMES[link.provider];
          return name
            ? [
                {
                  provider: name,
                  client: link.client === ProviderClient.PROVIDER_CLIENT_MOBILE ? ('mobile' as const) : ('web' as const),
                  updatedAt: present(link.updatedAt).toISOString(),
                },
              ]
            : [];
        }),
      };
    },
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/spotify/access-token/{id}/service`,
    summary: "A user's Spotify access token, refreshed when expired (services only)",
    tags,
    params: UserIdParams,
    response: ProviderTokenSchema,
    errors: [403, 404, 502, 503],
    handler: async ({ params }) =>
      tokenJson(
        await providers.getAccessToken({
          provider: MusicProvider.MUSIC_PROVIDER_SPOTIFY,
          client: ProviderClient.PROVIDER_CLIENT_WEB,
          userUuid: params.id,
          serviceOnly: true,
        }),
      ),
  });

  route(deps, {
    method: 'post',
    path: `${BASE}/auth/discord-auth`,
    summary: 'Signs in with a Discord authorization code (signs up a new user with Discord’s verified email)',
    tags: ['auth'],
    auth: 'public',
    body: DiscordCodeSchema,
    response: AccessGrantSchema.extend({ created: z.boolean() }),
    errors: [403, 429, 502, 503],
    // A refused code counts as a failed login from this address.
    handler: async ({ body, req }) =>
      limits.loginFailures.attempt(clientAddress(req), async () => {
        const answer = await providers.discordAuth({ code: body });
        return { ...present(answer.grant), created: answer.created };
      }),
  });

  route(deps, {
    method: 'post',
    path: `${BASE}/auth/exchange-code`,
    summary: 'The Discord user behind a Discord authorization code (nothing is stored)',
    tags: ['auth'],
    auth: 'public',
    body: DiscordCodeSchema,
    response: z.object({ id: z.string(), username: z.string(), globalName: z.string(), email: z.string(), verified: z.boolean() }),
    errors: [429, 502, 503],
    handler: async ({ body, req }) =>
      limits.loginFailures.attempt(clientAddress(req), async () => present((await providers.exchangeDiscordCode({ code: body })).user)),
  });

  route(deps, {
    method: 'post',
    path: `${BASE}/auth/link-discord`,
    summary: "Links a Discord account to the caller (the profile's discord and discordNickname)",
    tags: ['auth'],
    body: DiscordCodeSchema,
    response: UserProfileSchema,
    errors: [403, 409, 502, 503],
    handler: async ({ body }) => toProfileJson(present((await providers.linkDiscord({ code: body })).profile)),
  });

  route(deps, {
    method: 'post',
    path: `${BASE}/agora/token`,
    summary: 'A voice and video token (Agora) for a channel, as PUBLISHER or SUBSCRIBER',
    tags: ['voice and video'],
    body: z.object({ channelName: z.string().min(1).max(63), role: z.enum(['PUBLISHER', 'SUBSCRIBER']) }),
    response: z.object({ token: z.string(), appId: z.string(), uid: z.string(), expiresIn: z.number().int() }),
    errors: [403, 503],
    handler: async ({ body }) => {
      const role = body.role === 'PUBLISHER' ? AgoraRole.AGORA_ROLE_PUBLISHER : AgoraRole.AGORA_ROLE_SUBSCRIBER;
      const answer = await providers.issueAgoraToken({ channelName: body.channelName, role });
      return { token: answer.token, appId: answer.appId, uid: answer.uid, expiresIn: answer.expiresInSeconds };
    },
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/comet-chat/ghost-token`,
    summary: "A chat token for the caller's ghost (reads as a guest)",
    tags: ['chat'],
    response: z.object({ cometAuthToken: z.string() }),
    errors: [403],
    handler: async () => ({ cometAuthToken: (await providers.issueGhostChatToken({})).chatToken }),
  });

  route(deps, {
    method: 'post',
    path: `${BASE}/comet-chat/create-users`,
    summary: 'The chat users of these accounts (admins and services)',
    tags: ['chat'],
    body: z.object({ userUuids: z.array(z.uuid()).min(1).max(150) }),
    response: z.object({
      users: z.array(z.object({ uid: z.string(), name: z.string(), avatar: z.string(), role: z.string() })),
      unknownUuids: z.array(z.string()),
    }),
    errors: [403],
    handler: async ({ body }) => providers.createChatUsers({ userUuids: body.userUuids }),
  });
}
