import { APPLE_KEY_ID, APPLE_TEAM_ID, startAppleMusicStandIn } from '../../services/playlist/test/stand-ins/apple-music.js';
import { startAudiusStandIn } from '../../services/playlist/test/stand-ins/audius.js';
import { CYANITE, startCyaniteStandIn } from '../../services/playlist/test/stand-ins/cyanite.js';
import { SEVEN_DIGITAL_CONSUMER, startSevenDigitalStandIn } from '../../services/playlist/test/stand-ins/seven-digital.js';
import { SOUNDCLOUD_CLIENT, startSoundCloudStandIn } from '../../services/playlist/test/stand-ins/soundcloud.js';
import { SPOTIFY_CLIENT, startSpotifyStandIn } from '../../services/playlist/test/stand-ins/spotify.js';
import { startYouTubeStandIn, YOUTUBE_KEY } from '../../services/playlist/test/stand-ins/youtube.js';
import { OAuthStandIns, providersUserConfig } from './oauth-stand-ins.js';

/**
 * Every music provider's local stand-in, and the playlist service's environment
 * that points each adapter at its stand-in with the credentials it accepts
 * (pass `env` as the platform's `providerEnv`), and the OAuth token endpoints
 * the user service links accounts through (pass `user` as the platform's `user`).
 */
export async function startProviderStandIns() {
  const [spotify, apple, sevenDigital, cyanite, soundcloud, youtube, audius, oauth] = await Promise.all([
    startSpotifyStandIn(),
    startAppleMusicStandIn(Date.now),
    startSevenDigitalStandIn(),
    startCyaniteStandIn(),
    startSoundCloudStandIn(),
    startYouTubeStandIn(),
    startAudiusStandIn(),
    OAuthStandIns.start(),
  ]);
  const env: NodeJS.ProcessEnv = {
    SPOTIFY_API_URL: spotify.url,
    SPOTIFY_ACCOUNTS_URL: spotify.url,
    SPOTIFY_CLIENT_ID: SPOTIFY_CLIENT.id,
    SPOTIFY_CLIENT_SECRET: SPOTIFY_CLIENT.secret,
    APPLE_MUSIC_API_URL: apple.url,
    APPLE_MUSIC_TEAM_ID: APPLE_TEAM_ID,
    APPLE_MUSIC_KEY_ID: APPLE_KEY_ID,
    APPLE_MUSIC_PRIVATE_KEY: apple.privateKeyPem,
    SEVEN_DIGITAL_API_URL: sevenDigital.url,
    SEVEN_DIGITAL_PREVIEWS_URL: sevenDigital.url,
    SEVEN_DIGITAL_STREAM_URL: sevenDigital.url,
    SEVEN_DIGITAL_CONSUMER_KEY: SEVEN_DIGITAL_CONSUMER.key,
    SEVEN_DIGITAL_CONSUMER_SECRET: SEVEN_DIGITAL_CONSUMER.secret,
    CYANITE_API_URL: cyanite.url,
    CYANITE_ACCESS_TOKEN: CYANITE.accessToken,
    CYANITE_WEBHOOK_SECRET: CYANITE.webhookSecret,
    SOUNDCLOUD_API_URL: soundcloud.url,
    SOUNDCLOUD_AUTH_URL: soundcloud.url,
    SOUNDCLOUD_CLIENT_ID: SOUNDCLOUD_CLIENT.id,
    SOUNDCLOUD_CLIENT_SECRET: SOUNDCLOUD_CLIENT.secret,
    YOUTUBE_API_URL: youtube.url,
    YOUTUBE_API_KEY: YOUTUBE_KEY,
    AUDIUS_API_URL: audius.url,
  };
  return {
    spotify,
    apple,
    sevenDigital,
    cyanite,
    soundcloud,
    youtube,
    audius,
    oauth,
    env,
    user: providersUserConfig(oauth),
    close: () =>
      Promise.all([spotify, apple, sevenDigital, cyanite, soundcloud, youtube, audius, oauth].map((s) => s.close())).then(() => undefined),
  };
}
