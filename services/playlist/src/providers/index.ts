import { createPrivateKey, type KeyObject } from 'node:crypto';
import { ConfigError, createLogger, env, loadConfig } from '@spinroom/platform';
import { z } from 'zod';
import { AppleMusicProvider } from './apple-music.js';
import { AudiusProvider } from './audius.js';
import { CyaniteClient } from './cyanite.js';
import type { MusicCatalogueProvider } from './provider.js';
import { SevenDigitalProvider } from './seven-digital.js';
import { SoundCloudProvider } from './soundcloud.js';
import { SpotifyProvider } from './spotify.js';
import type { ProviderDeps } from './support.js';
import { YouTubeProvider } from './youtube.js';

export type { MusicCatalogueProvider, ProviderTrack, SearchOptions } from './provider.js';
export { providerFailed, providerOff } from './provider.js';
export { AppleMusicProvider, AudiusProvider, CyaniteClient, SevenDigitalProvider, SoundCloudProvider, SpotifyProvider, YouTubeProvider };
export type { ProviderDeps };

/** An unset or blank variable is absent. */
const blankIsUnset = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const secret = () => z.preprocess(blankIsUnset, z.string().trim().min(1).optional());
const baseUrl = (fallback: string) => z.preprocess(blankIsUnset, env.url(['http', 'https']).default(fallback));

/** The ES256 MusicKit key (.p8, PKCS#8 PEM; `\n` escapes allowed). */
const appleMusicKey = () =>
  z.preprocess(
    blankIsUnset,
    env
      .pem('PRIVATE KEY')
      .transform((pem, ctx): KeyObject => {
        try {
          const key = createPrivateKey(pem);
          if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return key;
        } catch {
          // reported below
        }
        ctx.addIssue({ code: 'custom', message: 'must be the MusicKit .p8 key (an EC P-256 private key)' });
        return z.NEVER;
      })
      .optional(),
  );

/** The music providers' environment (each provider: one base URL and its credentials). */
export const musicProviderConfig = {
  /** Per attempt, body included. */
  MUSIC_PROVIDER_TIMEOUT_MS: z.coerce.number().int().positive().default(8000),
  SPOTIFY_API_URL: baseUrl('https://api.spotify.com'),
  SPOTIFY_ACCOUNTS_URL: baseUrl('https://accounts.spotify.com'),
  SPOTIFY_CLIENT_ID: secret(),
  SPOTIFY_CLIENT_SECRET: secret(),
  APPLE_MUSIC_API_URL: baseUrl('https://api.music.apple.com'),
  APPLE_MUSIC_TEAM_ID: secret(),
  APPLE_MUSIC_KEY_ID: secret(),
  APPLE_MUSIC_PRIVATE_KEY: appleMusicKey(),
  SOUNDCLOUD_API_URL: baseUrl('https://api.soundcloud.com'),
  SOUNDCLOUD_AUTH_URL: baseUrl('https://secure.soundcloud.com'),
  SOUNDCLOUD_CLIENT_ID: secret(),
  SOUNDCLOUD_CLIENT_SECRET: secret(),
  YOUTUBE_API_URL: baseUrl('https://www.googleapis.com'),
  YOUTUBE_API_KEY: secret(),
  /** Audius needs no credentials; it is off until a discovery node or gateway is named. */
  AUDIUS_API_URL: z.preprocess(blankIsUnset, env.url(['http', 'https']).optional()),
  AUDIUS_APP_NAME: z.preprocess(blankIsUnset, z.string().trim().min(1).default('spinroom')),
  SEVEN_DIGITAL_API_URL: baseUrl('https://api.7digital.com'),
  SEVEN_DIGITAL_PREVIEWS_URL: baseUrl('https://previews.7digital.com'),
  SEVEN_DIGITAL_STREAM_URL: baseUrl('https://stream.svc.7digital.net'),
  SEVEN_DIGITAL_CONSUMER_KEY: secret(),
  SEVEN_DIGITAL_CONSUMER_SECRET: secret(),
  SEVEN_DIGITAL_USAGE_TYPES: z.preprocess(blankIsUnset, z.string().trim().min(1).default('download')),
  /** The music-analysis service: GraphQL endpoint, the integration's access token (off without it) and webhook secret. */
  CYANITE_API_URL: baseUrl('https://api.cyanite.ai/graphql'),
  CYANITE_ACCESS_TOKEN: secret(),
  CYANITE_WEBHOOK_SECRET: secret(),
};

export type MusicProviderConfig = z.infer<z.ZodObject<typeof musicProviderConfig>>;

/** Credentials that only work together: some set and some not is a mistake, not "off". */
const CREDENTIAL_GROUPS: ReadonlyArray<readonly (keyof MusicProviderConfig)[]> = [
  ['SPOTIFY_CLIENT_ID', 'SPOTIFY_CLIENT_SECRET'],
  ['APPLE_MUSIC_TEAM_ID', 'APPLE_MUSIC_KEY_ID', 'APPLE_MUSIC_PRIVATE_KEY'],
  ['SOUNDCLOUD_CLIENT_ID', 'SOUNDCLOUD_CLIENT_SECRET'],
];

/** Reads and checks the providers' variables; a wrong one is a ConfigError naming it. */
export function loadMusicProviderConfig(environment: NodeJS.ProcessEnv = process.env): MusicProviderConfig {
  const config = loadConfig(musicProviderConfig, environment);
  const issues: string[] = [];
  for (const group of CREDENTIAL_GROUPS) {
    const set = group.filter((name) => config[name] !== undefined);
    if (set.length > 0 && set.length < group.length) {
      for (const name of group.filter((n) => config[n] === undefined)) issues.push(`${name}: is required when ${set.join(' and ')} is set`);
    }
  }
  if (config.SEVEN_DIGITAL_CONSUMER_SECRET && !config.SEVEN_DIGITAL_CONSUMER_KEY) {
    issues.push('SEVEN_DIGITAL_CONSUMER_KEY: is required when SEVEN_DIGITAL_CONSUMER_SECRET is set');
  }
  if (issues.length > 0) throw new ConfigError(issues);
  return config;
}

/** The six outside catalogues, on or off. */
export interface MusicProviders {
  readonly spotify: SpotifyProvider;
  readonly apple: AppleMusicProvider;
  readonly soundCloudPublic: SoundCloudProvider;
  readonly youtube: YouTubeProvider;
  readonly audius: AudiusProvider;
  readonly sevenDigital: SevenDigitalProvider;
  /** The music-analysis service (not a catalogue). */
  readonly cyanite: CyaniteClient;
  /** All six: spec 002's import order first (sevenDigital, soundCloudPublic, spotify, apple), then youtube, audius. */
  readonly all: readonly MusicCatalogueProvider[];
  /** The ones with credentials, in the same order. */
  readonly enabled: readonly MusicCatalogueProvider[];
  /** By spec 002 provider name ("apple", "soundCloudPublic", ...); undefined for providers without an adapter. */
  get(name: string): MusicCatalogueProvider | undefined;
}

/**
 * Builds every provider client from the environment (read once, through zod).
 * `deps` are for tests: a clock, a fetch, a logger.
 */
export function createProviders(
  environment: NodeJS.ProcessEnv = process.env,
  deps: Partial<Omit<ProviderDeps, 'timeoutMs'>> = {},
): MusicProviders {
  const config = loadMusicProviderConfig(environment);
  const shared: ProviderDeps = {
    logger: deps.logger ?? createLogger('playlist'),
    fetch: deps.fetch ?? ((input, init) => fetch(input, init)),
    now: deps.now ?? Date.now,
    timeoutMs: config.MUSIC_PROVIDER_TIMEOUT_MS,
  };
  const spotify = new SpotifyProvider(
    {
      apiUrl: config.SPOTIFY_API_URL,
      accountsUrl: config.SPOTIFY_ACCOUNTS_URL,
      clientId: config.SPOTIFY_CLIENT_ID,
      clientSecret: config.SPOTIFY_CLIENT_SECRET,
    },
    shared,
  );
  const apple = new AppleMusicProvider(
    {
      apiUrl: config.APPLE_MUSIC_API_URL,
      teamId: config.APPLE_MUSIC_TEAM_ID,
      keyId: config.APPLE_MUSIC_KEY_ID,
      privateKey: config.APPLE_MUSIC_PRIVATE_KEY,
    },
    shared,
  );
  const soundCloudPublic = new SoundCloudProvider(
    {
      apiUrl: config.SOUNDCLOUD_API_URL,
      authUrl: config.SOUNDCLOUD_AUTH_URL,
      clientId: config.SOUNDCLOUD_CLIENT_ID,
      clientSecret: config.SOUNDCLOUD_CLIENT_SECRET,
    },
    shared,
  );
  const youtube = new YouTubeProvider({ apiUrl: config.YOUTUBE_API_URL, apiKey: config.YOUTUBE_API_KEY }, shared);
  const audius = new AudiusProvider(
    { apiUrl: config.AUDIUS_API_URL, appName: config.AUDIUS_APP_NAME, webUrl: 'https://audius.co' },
    shared,
  );
  const sevenDigital = new SevenDigitalProvider(
    {
      apiUrl: config.SEVEN_DIGITAL_API_URL,
      previewsUrl: config.SEVEN_DIGITAL_PREVIEWS_URL,
      streamUrl: config.SEVEN_DIGITAL_STREAM_URL,
      consumerKey: config.SEVEN_DIGITAL_CONSUMER_KEY,
      consumerSecret: config.SEVEN_DIGITAL_CONSUMER_SECRET,
      usageTypes: config.SEVEN_DIGITAL_USAGE_TYPES,
    },
    shared,
  );
  const cyanite = new CyaniteClient(
    { apiUrl: config.CYANITE_API_URL, accessToken: config.CYANITE_ACCESS_TOKEN, webhookSecret: config.CYANITE_WEBHOOK_SECRET },
    shared,
  );
  const all: readonly MusicCatalogueProvider[] = [sevenDigital, soundCloudPublic, spotify, apple, youtube, audius];
  const byName = new Map<string, MusicCatalogueProvider>(all.map((provider) => [provider.name, provider]));
  return {
    spotify,
    apple,
    soundCloudPublic,
    youtube,
    audius,
    sevenDigital,
    cyanite,
    all,
    enabled: all.filter((provider) => provider.enabled),
    get: (name) => byName.get(name),
  };
}
