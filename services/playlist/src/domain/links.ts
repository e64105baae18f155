import type { MusicProvider } from './song.js';

/** Spec 002: shared links are looked up only when their host names one of these. */
export const LINK_HOSTS = ['apple', 'audius', 'napster', 'soundcloud', 'spotify', 'youtube', 'youtu.be', 'pandora', 'deezer', 'tidal', 'amazon', 'yandex', 'spinrilla'];

export interface TrackLink {
  provider: MusicProvider;
  providerSongId: string;
}

/** Whether a shared link is one of the music links spec 002 looks up at all. */
export function isMusicLink(link: string): boolean {
  const url = parse(link);
  return !!url && LINK_HOSTS.some((host) => url.hostname.toLowerCase().includes(host));
}

/**
 * The provider track a shared link points at, for the link shapes that carry
 * the provider's track id (Spotify, Apple Music, YouTube); null otherwise.
 */
export function parseTrackLink(link: string): TrackLink | null {
  const url = parse(link);
  if (!url || !isMusicLink(link)) return null;
  const host = url.hostname.toLowerCase().replace(/^www\.|^m\./, '');
  const parts = url.pathname.split('/').filter(Boolean);
  if (host === 'open.spotify.com') {
    // /track/{id}, also /intl-xx/track/{id}
    const at = parts.indexOf('track');
    const id = at >= 0 ? parts[at + 1] : undefined;
    return id && /^[A-Za-z0-9]{22}$/.test(id) ? { provider: 'spotify', providerSongId: id } : null;
  }
  if (host === 'music.apple.com') {
    // /{storefront}/song/{name}/{id} or /{storefront}/album/{name}/{albumId}?i={songId}
    const song = url.searchParams.get('i') ?? (parts[1] === 'song' ? parts.at(-1) : undefined);
    return song && /^\d+$/.test(song) ? { provider: 'apple', providerSongId: song } : null;
  }
  if (host === 'youtube.com' || host === 'music.youtube.com' || host === 'youtu.be') {
    const id = host === 'youtu.be' ? parts[0] : (url.searchParams.get('v') ?? (parts[0] === 'shorts' ? parts[1] : undefined));
    return id && /^[A-Za-z0-9_-]{11}$/.test(id) ? { provider: 'youtube', providerSongId: id } : null;
  }
  return null;
}

function parse(link: string): URL | null {
  try {
    const url = new URL(link);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}
