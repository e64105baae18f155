// Where each provider's player comes from (spec 002 "Playback"): the SDKs are
// loaded at run time from the providers' own addresses, as their terms require.
// A build may point them elsewhere (VITE_* below), e.g. a mirror; the browser
// tests route these addresses to local stand-ins (test/support/playback-stand-ins.ts).
// The BFF's Content-Security-Policy allows exactly these origins (bff/src/app.ts).

export interface PlaybackAddresses {
  /** Spotify Web Playback SDK. */
  spotifySdk: string;
  /** Spotify Web API (the SDK plays on a device; the Web API says what to play, where). */
  spotifyApi: string;
  /** MusicKit on the Web v3. */
  musicKit: string;
  /** YouTube IFrame Player API. */
  youtubeIframeApi: string;
  /** SoundCloud API (a track's stream URLs). */
  soundCloudApi: string;
  /** An Audius API host (a track's stream endpoint). */
  audiusApi: string;
}

const env = import.meta.env as Record<string, string | undefined>;

export const PLAYBACK_ADDRESSES: PlaybackAddresses = {
  spotifySdk: env.VITE_SPOTIFY_SDK_URL ?? 'https://sdk.scdn.co/spotify-player.js',
  spotifyApi: env.VITE_SPOTIFY_API_URL ?? 'https://api.spotify.com',
  musicKit: env.VITE_MUSICKIT_URL ?? 'https://js-cdn.music.apple.com/musickit/v3/musickit.js',
  youtubeIframeApi: env.VITE_YOUTUBE_IFRAME_API_URL ?? 'https://www.youtube.com/iframe_api',
  soundCloudApi: env.VITE_SOUNDCLOUD_API_URL ?? 'https://api.soundcloud.com',
  audiusApi: env.VITE_AUDIUS_API_URL ?? 'https://api.audius.co',
};

/** The app's name as the providers' players show it. */
export const APP_NAME = 'Spinroom';

/** Spec 002: anonymous visitors hear this many songs, then are asked to sign up (the spec leaves the number open). */
export const FREE_PREVIEW_SONGS = Number(env.VITE_FREE_PREVIEW_SONGS ?? 3);
