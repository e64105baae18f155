import { badRequest } from '@spinroom/platform';
import { providerOff, type MusicProviders } from '../providers/index.js';
import { CRATE_SONGS_MAX } from './crate.js';
import type { CrateRef, Crates } from './crates.js';
import type { Song } from './song.js';

export const EXPORT_PROVIDERS = ['spotify', 'apple'] as const;
export const EXPORT_DESCRIPTION = 'Exported from Spinroom';
/** ISRC lookups at once while matching a crate's songs. */
const LOOKUPS_AT_ONCE = 4;

export interface CrateExport {
  playlistId: string;
  url: string;
  added: number;
  missing: Song[];
}

/**
 * A readable crate becomes a playlist in the caller's own account: each song
 * goes by the provider's id when the catalogue knows it, else by its ISRC
 * looked up there; the rest are answered as missing.
 */
export class CrateExports {
  constructor(
    private readonly crates: Crates,
    private readonly providers: MusicProviders,
  ) {}

  async export(
    caller: string,
    ref: CrateRef,
    input: { musicProvider: string; userToken: string; playlistName?: string; country?: string },
  ): Promise<CrateExport> {
    if (!(EXPORT_PROVIDERS as readonly string[]).includes(input.musicProvider)) {
      throw badRequest(`Crates can be exported to ${EXPORT_PROVIDERS.join(' and ')} only`);
    }
    const token = input.userToken.trim();
    if (!token) throw badRequest('The provider token of the user is required');
    const { crate, entries } = await this.crates.entries(ref, caller, { limit: CRATE_SONGS_MAX, offset: 0 });
    const name = input.playlistName?.trim() || crate.crateName;
    const songs = entries.map((e) => e.song);

    if (input.musicProvider === 'spotify') {
      const spotify = this.providers.spotify;
      const ids = await mapLimit(songs, (song) =>
        song.musicProviders.spotify
          ? Promise.resolve(song.musicProviders.spotify)
          : song.isrc
            ? spotify.trackIdByIsrcAs(token, song.isrc, input.country)
            : Promise.resolve(null),
      );
      const found = ids.filter((id): id is string => !!id);
      const result = await spotify.exportPlaylist(token, name, EXPORT_DESCRIPTION, found);
      return { ...result, missing: songs.filter((_, i) => !ids[i]) };
    }

    const apple = this.providers.apple;
    if (!apple.enabled) throw providerOff(apple.label);
    const ids = await mapLimit(
      songs,
      async (song) =>
        song.musicProviders.apple ??
        (song.isrc ? ((await apple.trackByIsrc(song.isrc, { country: input.country }))?.providerSongId ?? null) : null),
    );
    const found = ids.filter((id): id is string => !!id);
    const result = await apple.exportPlaylist(token, name, EXPORT_DESCRIPTION, found);
    return { ...result, missing: songs.filter((_, i) => !ids[i]) };
  }
}

async function mapLimit<T, R>(items: T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(LOOKUPS_AT_ONCE, items.length) }, worker));
  return results;
}
