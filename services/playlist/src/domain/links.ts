import type { MusicProvider } from './song.js';

/** Spec 002: shared links are looked up only when their host names one of these. */
export const LINK_HOSTS = [
  'apple',
  'audius',
  'napster',
  'soundcloud',
  'spotify',
  'youtube',
  'youtu.be',
  'pandora',
  'deezer',
  'tidal',
  'amazon',
  'yandex',
  'spinrilla',
];

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

/** Where a provider's track opens, from its id alone (the links job fills songs' missing links with these). */
const TRACK_LINKS: Partial<Record<MusicProvider, (id: string) => string | null>> = {
  spotify: (id) => (/^[A-Za-z0-9]{22}$/.test(id) ? `https://open.spotify.com/track/${id}` : null),
  apple: (id) => (/^\d{1,20}$/.test(id) ? `https://music.apple.com/us/song/${id}` : null),
  youtube: (id) => (/^[A-Za-z0-9_-]{11}$/.test(id) ? `https://www.youtube.com/watch?v=${id}` : null),
  // SoundCloud pages are named by slugs; a track id opens in its player widget.
  soundCloudPublic: (id) =>
    /^\d{1,20}$/.test(id) ? `https://w.soundcloud.com/player/?url=${encodeURIComponent(`https://api.soundcloud.com/tracks/${id}`)}` : null,
  // Audius and 7digital pages are named by slugs an id cannot make; songs that came
  // through their adapters already carry the permalink the provider gave.
};

/** The song's links with every missing one its provider ids can make filled in; null when nothing changes. */
export function completedLinks(musicProviders: Record<string, string>, links: Record<string, string>): Record<string, string> | null {
  const added: Record<string, string> = {};
  for (const [provider, id] of Object.entries(musicProviders)) {
    if (links[provider] || !id) continue;
    const link = TRACK_LINKS[provider as MusicProvider]?.(id);
    if (link) added[provider] = link;
  }
  return Object.keys(added).length > 0 ? { ...links, ...added } : null;
}
