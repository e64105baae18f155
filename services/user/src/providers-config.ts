import { createPrivateKey, type KeyObject } from 'node:crypto';
import { env } from '@spinroom/platform/core';
import { z } from 'zod';

/** An unset or blank variable is absent (an env file's `NAME=` turns a provider off). */
const blankIsUnset = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const secret = () => z.preprocess(blankIsUnset, z.string().trim().min(1).optional());
const baseUrl = (fallback: string) => z.preprocess(blankIsUnset, env.url(['http', 'https']).default(fallback));

/**
 * `kid:base64key[,kid:base64key...]`: AES-256 keys for provider tokens at rest.
 * The first encrypts; every listed key still decrypts, so a key is rotated by
 * putting a new one first and dropping the old one once nothing uses it.
 */
const tokenKeys = () =>
  z.preprocess(
    blankIsUnset,
    z
      .string()
      .transform((value, ctx) => {
        const keys: Array<{ id: string; key: Buffer }> = [];
        for (const entry of value.split(',').map((s) => s.trim())) {
          const [id = '', encoded = ''] = entry.split(':');
          const key = Buffer.from(encoded, 'base64');
          if (!/^[A-Za-z0-9_-]{1,32}$/.test(id) || key.length !== 32 || keys.some((k) => k.id === id)) {
            ctx.addIssue({ code: 'custom', message: 'must be kid:base64 entries (distinct ids, 32-byte keys), comma-separated' });
            return z.NEVER;
          }
          keys.push({ id, key });
        }
        return keys;
      })
      .optional(),
  );

/** The ES256 MusicKit key (.p8, PKCS#8 PEM; `\n` escapes allowed), as services/playlist reads it. */
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

/**
 * The "providers" area's environment: music providers' OAuth apps (names as
 * services/playlist spells them where they are the same app), Discord, Agora.
 * Every credential is optional: a provider without one answers 503.
 */
export const providersConfig = {
  PROVIDER_TOKEN_KEYS: tokenKeys(),
  /** Per request to a provider, body included. */
  PROVIDER_HTTP_TIMEOUT_MS: z.coerce.number().int().positive().default(8000),
  SPOTIFY_ACCOUNTS_URL: baseUrl('https://accounts.spotify.com'),
  SPOTIFY_CLIENT_ID: secret(),
  SPOTIFY_CLIENT_SECRET: secret(),
  /** Google's OAuth token endpoint host, for YouTube. */
  GOOGLE_OAUTH_URL: baseUrl('https://oauth2.googleapis.com'),
  YOUTUBE_CLIENT_ID: secret(),
  YOUTUBE_CLIENT_SECRET: secret(),
  SOUNDCLOUD_AUTH_URL: baseUrl('https://secure.soundcloud.com'),
  SOUNDCLOUD_CLIENT_ID: secret(),
  SOUNDCLOUD_CLIENT_SECRET: secret(),
  /** The mobile app's own SoundCloud registration. */
  SOUNDCLOUD_MOBILE_CLIENT_ID: secret(),
  SOUNDCLOUD_MOBILE_CLIENT_SECRET: secret(),
  APPLE_MUSIC_TEAM_ID: secret(),
  APPLE_MUSIC_KEY_ID: secret(),
  APPLE_MUSIC_PRIVATE_KEY: appleMusicKey(),
  DISCORD_API_URL: baseUrl('https://discord.com/api'),
  DISCORD_CLIENT_ID: secret(),
  DISCORD_CLIENT_SECRET: secret(),
  /** Agora's 32-hex app id and certificate. */
  AGORA_APP_ID: z.preprocess(
    blankIsUnset,
    z
      .string()
      .regex(/^[0-9a-fA-F]{32}$/, 'must be 32 hex digits')
      .optional(),
  ),
  AGORA_APP_CERTIFICATE: z.preprocess(
    blankIsUnset,
    z
      .string()
      .regex(/^[0-9a-fA-F]{32}$/, 'must be 32 hex digits')
      .optional(),
  ),
  AGORA_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(3600),
};

export type ProvidersConfig = z.infer<z.ZodObject<typeof providersConfig>>;
