import { ConfigError } from '@spinroom/platform';
import { describe, expect, it } from 'vitest';
import { loadMusicProviderConfig } from '../../src/providers/index.js';
import { NOWHERE, testProviders } from './helpers.js';

describe('music provider registry', () => {
  it('has all six providers, off without credentials, in spec 002 import order', () => {
    const { providers } = testProviders({});
    expect(providers.all.map((p) => p.name)).toEqual(['sevenDigital', 'soundCloudPublic', 'spotify', 'apple', 'youtube', 'audius']);
    expect(providers.all.every((p) => !p.enabled)).toBe(true);
    expect(providers.enabled).toEqual([]);
    expect(providers.get('apple')).toBe(providers.apple);
    expect(providers.get('deezer')).toBeUndefined();
    expect(providers.all.map((p) => [p.name, p.pageSize])).toEqual([
      ['sevenDigital', 20],
      ['soundCloudPublic', 20],
      ['spotify', 20],
      ['apple', 25],
      ['youtube', 20],
      ['audius', 20],
    ]);
  });

  it('turns on the providers that have credentials', () => {
    const { providers } = testProviders({
      SPOTIFY_CLIENT_ID: 'id',
      SPOTIFY_CLIENT_SECRET: 'secret',
      YOUTUBE_API_KEY: 'key',
      AUDIUS_API_URL: NOWHERE,
    });
    expect(providers.enabled.map((p) => p.name)).toEqual(['spotify', 'youtube', 'audius']);
  });

  it('reads the defaults: the providers’ public URLs and an 8 s timeout', () => {
    const config = loadMusicProviderConfig({});
    expect(config).toMatchObject({
      MUSIC_PROVIDER_TIMEOUT_MS: 8000,
      SPOTIFY_API_URL: 'https://api.spotify.com',
      SPOTIFY_ACCOUNTS_URL: 'https://accounts.spotify.com',
      APPLE_MUSIC_API_URL: 'https://api.music.apple.com',
      SOUNDCLOUD_API_URL: 'https://api.soundcloud.com',
      SOUNDCLOUD_AUTH_URL: 'https://secure.soundcloud.com',
      YOUTUBE_API_URL: 'https://www.googleapis.com',
      AUDIUS_APP_NAME: 'spinroom',
      SEVEN_DIGITAL_API_URL: 'https://api.7digital.com',
      SEVEN_DIGITAL_USAGE_TYPES: 'download',
    });
    expect(config.AUDIUS_API_URL).toBeUndefined();
    expect(config.SPOTIFY_CLIENT_ID).toBeUndefined();
  });

  it('treats blank variables as unset', () => {
    const { providers } = testProviders({ SPOTIFY_CLIENT_ID: '', SPOTIFY_CLIENT_SECRET: '  ', AUDIUS_API_URL: '' });
    expect(providers.enabled).toEqual([]);
  });

  it('refuses half a set of credentials and a wrong URL, naming the variables', () => {
    const attempt = () => loadMusicProviderConfig({ SOUNDCLOUD_CLIENT_ID: 'id', SEVEN_DIGITAL_CONSUMER_SECRET: 's' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/SOUNDCLOUD_CLIENT_SECRET: is required when SOUNDCLOUD_CLIENT_ID is set/);
    expect(attempt).toThrow(/SEVEN_DIGITAL_CONSUMER_KEY: is required when SEVEN_DIGITAL_CONSUMER_SECRET is set/);
    expect(() => loadMusicProviderConfig({ YOUTUBE_API_URL: 'ftp://example.com' })).toThrow(/YOUTUBE_API_URL: must be a http or https URL/);
    expect(() => loadMusicProviderConfig({ MUSIC_PROVIDER_TIMEOUT_MS: '0' })).toThrow(/MUSIC_PROVIDER_TIMEOUT_MS/);
  });
});
