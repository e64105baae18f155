// Providers as people read them, and a song's artwork. Which source plays a
// song for a listener is ../playback/choose.ts (spec 002 §4 "Playback").
import type { Song } from '../api/types';
import { PROVIDER_PREFERENCE } from '../playback/choose';

const LABELS: Record<string, string> = {
  apple: 'Apple Music',
  spotify: 'Spotify',
  youtube: 'YouTube',
  audius: 'Audius',
  soundCloudPublic: 'SoundCloud',
  sevenDigital: '7digital',
  uploadService: 'Spinroom uploads',
  napster: 'Napster',
  deezer: 'Deezer',
  tidal: 'Tidal',
  amazonMusic: 'Amazon Music',
};

export function providerLabel(provider: string): string {
  return LABELS[provider] ?? provider;
}

export function artwork(song: Song): string | undefined {
  const thumbnails = song.thumbnails ?? {};
  for (const provider of ['uploadService', ...PROVIDER_PREFERENCE]) {
    const url = thumbnails[provider];
    if (url && /^(https?:|\/)/.test(url)) return url;
  }
  return Object.values(thumbnails).find((u) => /^(https?:|\/)/.test(u));
}
