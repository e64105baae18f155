// Which source plays a song for this listener (spec 002 §4 "Playback", §3):
// uploads through their HLS playlist; songs from outside catalogues through a
// connected provider in the preference order (none can be connected in
// Spinroom yet), else a preview, else a plain reason.
import type { Song } from '../api/types';

export type PlaybackChoice =
  | { kind: 'hls'; provider: 'uploadService'; url: string }
  | { kind: 'preview'; provider: string; url: string }
  /** Nothing to play: the song's outside providers (their names), none of them connected, and no preview. */
  | { kind: 'none'; providers: string[] };

export const PROVIDER_PREFERENCE = ['apple', 'spotify', 'youtube', 'audius', 'soundCloudPublic', 'sevenDigital'];

const LABELS: Record<string, string> = {
  apple: 'Apple Music',
  spotify: 'Spotify',
  youtube: 'YouTube',
  audius: 'Audius',
  soundCloudPublic: 'SoundCloud',
  sevenDigital: '7digital',
  napster: 'Napster',
  deezer: 'Deezer',
  tidal: 'Tidal',
  amazonMusic: 'Amazon Music',
};

export function providerLabel(provider: string): string {
  return LABELS[provider] ?? provider;
}

export function choosePlayback(song: Song, connectedProviders: string[] = []): PlaybackChoice {
  const uploadId = song.musicProviders?.uploadService;
  const stream = song.streamUrls?.uploadService;
  if (uploadId || stream) {
    const url = stream?.startsWith('/') ? stream : `/api/upload-service/songs/${encodeURIComponent(uploadId ?? '')}/hls-playlist`;
    return { kind: 'hls', provider: 'uploadService', url };
  }
  const providers = Object.keys(song.musicProviders ?? {});
  for (const provider of PROVIDER_PREFERENCE) {
    if (providers.includes(provider) && connectedProviders.includes(provider)) {
      // A connected provider would play here; Spinroom has no provider players yet.
      break;
    }
  }
  for (const [provider, url] of Object.entries(song.previews ?? {})) {
    if (typeof url === 'string' && /^https?:\/\//.test(url)) return { kind: 'preview', provider, url };
  }
  return { kind: 'none', providers: providers.map(providerLabel) };
}

export function artwork(song: Song): string | undefined {
  const thumbnails = song.thumbnails ?? {};
  for (const provider of ['uploadService', ...PROVIDER_PREFERENCE]) {
    const url = thumbnails[provider];
    if (url && /^(https?:|\/)/.test(url)) return url;
  }
  return Object.values(thumbnails).find((u) => /^(https?:|\/)/.test(u));
}
