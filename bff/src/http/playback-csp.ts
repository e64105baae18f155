/**
 * What the web client's players load from the music providers' own addresses
 * (web/src/playback, web/README.md "Playback"), as Content-Security-Policy
 * sources added to the BFF's: the SDKs' scripts (Spotify's Web Playback SDK,
 * MusicKit on the Web, YouTube's IFrame Player API), the frames two of them
 * make, the APIs the page calls, and audio streams from the providers' CDNs
 * (Audius's content nodes and 7digital's signed URLs live on many hosts: any https).
 */
export const PLAYBACK_CSP = {
  'script-src': ['https://sdk.scdn.co', 'https://js-cdn.music.apple.com', 'https://www.youtube.com', 'https://s.ytimg.com'],
  'frame-src': ['https://sdk.scdn.co', 'https://www.youtube.com', 'https://www.youtube-nocookie.com'],
  'connect-src': [
    'https://api.spotify.com',
    'https://api.soundcloud.com',
    'https://*.sndcdn.com',
    // SoundCloud's AAC HLS (hls_aac_160_url, hls_aac_96_url), fetched by hls.js.
    'https://playback.media-streaming.soundcloud.cloud',
    'https://api.audius.co',
    'https://*.audius.co',
    'https://*.apple.com',
    'https://*.itunes.apple.com',
  ],
  'media-src': ['https:'],
} as const;
