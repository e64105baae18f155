// Which sources may play a song for this listener, best first (spec 002 §1,
// §4 "Playback"): an upload through its HLS playlist; else the song's own
// providers in the preference order (apple, spotify, youtube first), Apple and
// Spotify only through the listener's linked account; anonymous visitors get
// video (YouTube) first. A provider found for the song by ISRC or sameness
// (resolve.ts) comes after these, then a preview clip, then a plain reason.
import type { Song } from '../api/types';
import type { PlayableProvider, PlaySource } from './types';

export const PROVIDER_PREFERENCE: PlayableProvider[] = ['apple', 'spotify', 'youtube', 'audius', 'soundCloudPublic', 'sevenDigital'];
/** Spec 002: anonymous visitors default to video. */
export const ANONYMOUS_PREFERENCE: PlayableProvider[] = ['youtube', 'audius', 'soundCloudPublic', 'sevenDigital'];
/** Full songs on these need the listener's own account there. */
export const NEEDS_LINK: ReadonlySet<string> = new Set(['apple', 'spotify']);

export interface Listener {
  loggedIn: boolean;
  /** Providers the listener linked (apple, spotify, soundCloudPublic, youtube). */
  linked: ReadonlySet<string>;
}

export function uploadSource(song: Song): PlaySource | undefined {
  const uploadId = song.musicProviders?.uploadService;
  const stream = song.streamUrls?.uploadService;
  if (!uploadId && !stream) return undefined;
  const url = stream?.startsWith('/') ? stream : `/api/upload-service/songs/${encodeURIComponent(uploadId ?? '')}/hls-playlist`;
  return { provider: 'uploadService', url };
}

/** A source for `provider`'s id of the song, if this listener can play it there. */
export function providerSource(song: Song, provider: PlayableProvider, id: string, listener: Listener): PlaySource | undefined {
  if (!id) return undefined;
  if (NEEDS_LINK.has(provider) && !listener.linked.has(provider)) return undefined;
  if (provider === 'sevenDigital') return song.songId ? { provider, id, songId: song.songId } : undefined;
  if (provider === 'soundCloudPublic') return { provider, id, secret: song.playbackToken || undefined };
  return { provider, id };
}

/** The song's own sources this listener can play, best first. */
export function songSources(song: Song, listener: Listener): PlaySource[] {
  const upload = uploadSource(song);
  if (upload) return [upload];
  const order = listener.loggedIn ? PROVIDER_PREFERENCE : ANONYMOUS_PREFERENCE;
  return order.flatMap((provider) => {
    const source = providerSource(song, provider, song.musicProviders?.[provider] ?? '', listener);
    return source ? [source] : [];
  });
}

/** Providers the listener linked that the song is not known on yet (worth a lookup), best first. */
export function providersToFind(song: Song, listener: Listener): PlayableProvider[] {
  if (!listener.loggedIn || uploadSource(song)) return [];
  return PROVIDER_PREFERENCE.filter((p) => NEEDS_LINK.has(p) && listener.linked.has(p) && !song.musicProviders?.[p]);
}

/** Preview clips, the preference order's first. */
export function previewSources(song: Song): PlaySource[] {
  const previews = Object.entries(song.previews ?? {}).filter(([, url]) => typeof url === 'string' && /^https?:\/\//.test(url));
  const rank = (p: string) => {
    const i = PROVIDER_PREFERENCE.indexOf(p as PlayableProvider);
    return i < 0 ? PROVIDER_PREFERENCE.length : i;
  };
  return previews
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([provider, url]) => ({ provider: provider as PlayableProvider, url, preview: true }));
}
