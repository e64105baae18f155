// A song's id on a provider it was not played from (spec 002: a provider found
// by ISRC or by the sameness rule): first the catalogue's own copy of the song
// (GET /song-data/service, which knows every provider learnt so far), then the
// provider's search for its names, keeping the result that is the same song
// (same ISRC, or the sameness rule); that one is catalogued through
// GET /song-data/{id}/{provider}, so the catalogue learns the mapping for everyone.
import { api } from '../api/client';
import type { Song } from '../api/types';
import { isSameSong } from '../crates/sameness';
import type { PlayableProvider } from './types';

const PLAYLIST = '/api/playlist-service';

async function catalogueCopy(song: Song): Promise<Song | undefined> {
  if (!song.songId) return undefined;
  const { songs } = await api.get<{ songs: Song[] }>(`${PLAYLIST}/song-data/service`, { query: { ids: song.songId } });
  return songs[0];
}

async function searchProvider(song: Song, provider: PlayableProvider): Promise<string | undefined> {
  const q = `${song.trackName} ${song.artistName}`.trim().slice(0, 200);
  const { songs } = await api.get<{ songs: Song[] }>(`${PLAYLIST}/search/v2`, { query: { q, provider, limit: 10 } });
  const isrc = song.isrc?.toUpperCase();
  const found =
    (isrc ? songs.find((s) => s.isrc?.toUpperCase() === isrc) : undefined) ??
    songs.find((s) =>
      isSameSong({ ...s, songId: undefined, songShortId: undefined }, { ...song, songId: undefined, songShortId: undefined }),
    );
  const id = found?.musicProviders?.[provider];
  if (!id) return undefined;
  // Catalogued: the next listener finds it in the catalogue's copy.
  await api.get(`${PLAYLIST}/song-data/${encodeURIComponent(id)}/${encodeURIComponent(provider)}`).catch(() => undefined);
  return id;
}

/** The song's ids on these providers (best first) that the catalogue knows or a search finds; the first found is enough. */
export async function findOnProviders(
  song: Song,
  providers: PlayableProvider[],
): Promise<{ provider: PlayableProvider; id: string } | undefined> {
  if (providers.length === 0) return undefined;
  const copy = await catalogueCopy(song).catch(() => undefined);
  for (const provider of providers) {
    const id = copy?.musicProviders?.[provider];
    if (id) return { provider, id };
  }
  for (const provider of providers) {
    const id = await searchProvider(song, provider).catch(() => undefined);
    if (id) return { provider, id };
  }
  return undefined;
}
