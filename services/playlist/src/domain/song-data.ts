import { AppError, badRequest, notFound } from '@spinroom/platform';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { NewSong, PgSongStore } from '../db/song-store.js';
import type { MusicProviders } from '../providers/index.js';
import type { ProviderTrack } from '../providers/provider.js';
import { SONG_NOT_FOUND } from './crates.js';
import { isMusicLink, parseTrackLink } from './links.js';
import type { Song } from './song.js';
import { interleaveMixed } from './song-search.js';

/** Spec 002: the providers an import may use, in the order tried. */
export const IMPORT_ORDER = ['sevenDigital', 'soundCloudPublic', 'spotify', 'apple', 'uploadService'] as const;
export const NO_IMPORT_PROVIDER = 'Sorry, this song does not have any supported music providers to import from';
export const NOT_IN_CATALOG = "Sorry, this song is not in our catalog and can't be imported";
export const NOT_A_MUSIC_LINK = 'This link does not point at a music service';
export const LINK_NOT_SUPPORTED = 'Songs cannot be looked up from this kind of link yet';
export const NO_ISRC_AT_LINK = 'No track with an ISRC was found at this link';
/** The search "provider" that mixes the licensed catalogue's results with SoundCloud's. */
export const MIXED_SEARCH = 'mixed';

/** A provider's track as a catalogue song to be (a track that is not catalogued yet). */
export function fromProviderTrack(track: ProviderTrack): NewSong {
  return {
    isrc: track.isrc ?? '',
    trackName: track.trackName,
    artistName: track.artistName,
    duration: track.duration,
    explicit: track.explicit ?? false,
    genre: track.genre ?? '',
    releaseYear: track.releaseYear ?? null,
    albumName: track.albumName ?? '',
    musicProviders: { [track.provider]: track.providerSongId },
    thumbnails: track.thumbnails ?? {},
    links: track.links ?? {},
    previews: track.previews ?? {},
    streamUrls: {},
    status: 'SUCCESS',
    playbackToken: track.playbackToken ?? '',
  };
}

/** Song data from the outside catalogues: search tabs, enrichment and import. */
export class SongData {
  constructor(
    private readonly providers: MusicProviders,
    private readonly songs: PgSongStore,
    private readonly orm: MikroORM,
  ) {}

  list() {
    return this.providers.all.map((p) => ({ name: p.name, label: p.label, enabled: p.enabled }));
  }

  /**
   * A provider's search tab (its own page size when no limit is asked: 20 for
   * SoundCloud and 7digital, 25 for Apple), or `mixed`: spec 002's mixed
   * search, the licensed catalogue's (7digital's) first five results, then
   * SoundCloud's and 7digital's in turn, each asked for its own page; a
   * provider that is off adds nothing (both off: 7digital's 503).
   */
  async search(provider: string, query: string, options: { limit?: number; offset?: number; country?: string }): Promise<NewSong[]> {
    if (provider !== MIXED_SEARCH) return (await this.provider(provider).search(query, options)).map(fromProviderTrack);
    const licensed = this.providers.sevenDigital;
    const other = this.providers.soundCloudPublic;
    if (!licensed.enabled && !other.enabled) return (await licensed.search(query, options)).map(fromProviderTrack);
    const [a, b] = await Promise.all(
      [licensed, other].map((p) =>
        p.enabled ? p.search(query, { offset: options.offset, country: options.country }) : Promise.resolve([]),
      ),
    );
    const mixed = interleaveMixed(a ?? [], b ?? []).map(fromProviderTrack);
    return options.limit ? mixed.slice(0, options.limit) : mixed;
  }

  /** The provider's song, catalogued (a song seen before is enriched with what the provider says). */
  async songData(provider: string, providerSongId: string, country?: string): Promise<Song> {
    if (provider === 'uploadService') {
      const known = await this.songs.findByProviderId('uploadService', providerSongId);
      if (!known) throw notFound(SONG_NOT_FOUND);
      return known;
    }
    const track = await this.provider(provider).track(providerSongId, { country });
    if (!track) throw notFound(SONG_NOT_FOUND);
    return this.catalogue(track);
  }

  /** Spec 002: a shared track link is accepted only when its track has an ISRC. */
  async fromLink(link: string, country?: string): Promise<Song> {
    if (!isMusicLink(link)) throw badRequest(NOT_A_MUSIC_LINK);
    const target = parseTrackLink(link);
    if (!target) throw badRequest(LINK_NOT_SUPPORTED);
    const track = await this.provider(target.provider).track(target.providerSongId, { country });
    if (!track?.isrc) throw notFound(NO_ISRC_AT_LINK);
    return this.catalogue(track);
  }

  async importTrack(musicProviders: Record<string, string>, country?: string): Promise<Song> {
    const candidates = IMPORT_ORDER.filter((p) => musicProviders[p]);
    if (candidates.length === 0) throw badRequest(NO_IMPORT_PROVIDER);
    let failure: AppError | undefined;
    for (const name of candidates) {
      const id = musicProviders[name]!;
      if (name === 'uploadService') {
        const known = await this.songs.findByProviderId('uploadService', id);
        if (known) return known;
        continue;
      }
      const provider = this.providers.get(name);
      if (!provider?.enabled) continue;
      try {
        const track = await provider.track(id, { country });
        if (track) return await this.catalogue(track);
      } catch (error) {
        // A provider that fails is skipped; the next one in the order may know the song.
        if (!(error instanceof AppError) || error.status < 500) throw error;
        failure = error;
      }
    }
    throw failure ?? notFound(NOT_IN_CATALOG);
  }

  private provider(name: string) {
    const provider = this.providers.get(name);
    if (!provider) throw badRequest(`Unknown music provider: ${name}`);
    return provider;
  }

  private catalogue(track: ProviderTrack): Promise<Song> {
    return this.orm.em.fork().transactional((em) => this.songs.findOrCreate(em, fromProviderTrack(track)));
  }
}
