import { badRequest, notFound } from '@spinroom/platform';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { CrateEntry, PgCrateStore } from '../db/crate-store.js';
import type { NewSong, PgSongStore } from '../db/song-store.js';
import {
  assertEditable,
  assertNotSpecial,
  assertReadable,
  checkCrateName,
  CRATE_SONGS_MAX,
  newPlaylistName,
  type Crate,
  type SpecialCrateKind,
} from './crate.js';
import { moveItem, shuffle } from './positions.js';
import { MUSIC_PROVIDERS, SameSongSet, type Song } from './song.js';

export type CrateRef = { crateUuid: string } | { crateShortId: string } | { special: SpecialCrateKind };

/**
 * A song to add: a catalogue id, or a provider's song described in full.
 * `songId` is the catalogue's id, or an upload's (the upload service's songId,
 * catalogued as provider `uploadService` once verified).
 */
export type SongToAdd =
  | { songId: string }
  | { catalogueId: number }
  | {
      musicProvider: string;
      providerSongId: string;
      trackName: string;
      artistName: string;
      duration: number;
      isrc?: string;
      genre?: string;
      playbackToken?: string;
      explicit?: boolean;
      thumbnails?: Record<string, string>;
    };

export const MAX_SONGS_PER_ADD = 100;
/** The longest `q` for public crates, as for song search. */
export const PUBLIC_CRATE_QUERY_MAX = 200;
/** The upload service's song ids are uuids. */
const UPLOAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const SONG_NOT_FOUND = 'Song not found';

/** Crate rules over the crate and song stores. `caller` is the verified user's uuid. */
export class Crates {
  constructor(
    private readonly crates: PgCrateStore,
    private readonly songs: PgSongStore,
  ) {}

  async resolve(ref: CrateRef, caller: string): Promise<Crate> {
    if ('special' in ref) return this.crates.special(caller, ref.special);
    if ('crateShortId' in ref) return assertReadable(await this.crates.byShortId(ref.crateShortId), caller);
    return assertReadable(await this.crates.byUuid(ref.crateUuid), caller);
  }

  private async editable(ref: CrateRef, caller: string): Promise<Crate> {
    return assertEditable(await this.resolve(ref, caller), caller);
  }

  /**
   * A new crate of the caller's. `importing` makes it an import in progress,
   * whose job is staged in the same transaction.
   */
  async create(
    caller: string,
    input: { crateName?: string; isPublic?: boolean; description?: string },
    importing?: (em: EntityManager, crate: Crate) => Promise<void>,
  ): Promise<Crate> {
    const description = (input.description ?? '').trim();
    if (description.length > 1000) throw badRequest('description must be at most 1000 characters');
    return this.crates.fork().transactional(async (em) => {
      // One user's creations are serialised so two "New Playlist #n" never collide.
      await em.execute(`select pg_advisory_xact_lock(hashtext(?))`, [`crate-names:${caller}`]);
      const crateName = input.crateName?.trim() ? checkCrateName(input.crateName) : newPlaylistName(await this.crates.namesOf(em, caller));
      const crate = await this.crates.insert(em, {
        userUuid: caller,
        crateName,
        description,
        isPublic: input.isPublic ?? false,
        special: null,
        currentPosition: 0,
        importStatus: importing ? 'IN_PROGRESS' : 'COMPLETE',
      });
      if (importing) await importing(em, crate);
      return crate;
    });
  }

  listOwn(caller: string, page: { limit: number; offset: number }) {
    return this.crates.listByUser(caller, { publicOnly: false, ...page });
  }

  listPublic(userUuid: string, page: { limit: number; offset: number }) {
    return this.crates.listByUser(userUuid, { publicOnly: true, ...page });
  }

  listAllPublic(page: { limit: number; offset: number }) {
    return this.crates.listPublic(page);
  }

  /** Public crates with songs, to play from or copy; `query` matches names and descriptions. */
  browsePublic(query: string, page: { limit: number; offset: number }) {
    if (query.length > PUBLIC_CRATE_QUERY_MAX) throw badRequest(`q must be at most ${PUBLIC_CRATE_QUERY_MAX} characters`);
    return this.crates.browsePublic(query, page);
  }

  async update(ref: CrateRef, caller: string, changes: { crateName?: string; description?: string; isPublic?: boolean }): Promise<Crate> {
    const crate = await this.editable(ref, caller);
    if (changes.crateName !== undefined || changes.isPublic !== undefined) assertNotSpecial(crate, 'renamed or shared');
    return this.crates.update(crate, {
      ...(changes.crateName !== undefined ? { crateName: checkCrateName(changes.crateName) } : {}),
      ...(changes.description !== undefined ? { description: changes.description.trim().slice(0, 1000) } : {}),
      ...(changes.isPublic !== undefined ? { isPublic: changes.isPublic } : {}),
    });
  }

  async delete(ref: CrateRef, caller: string): Promise<void> {
    const crate = await this.editable(ref, caller);
    assertNotSpecial(crate, 'deleted');
    await this.crates.delete(crate);
  }

  /**
   * Copies a crate the caller may read: into a new crate of theirs ("<name> (copy)"),
   * or, with `into`, onto the end of a crate they may edit (their queue, say), leaving
   * out songs that crate already holds (and repeats within the source) by the sameness
   * rule, so copying twice adds nothing. Answers the crate written and how many songs it gained.
   */
  async copy(ref: CrateRef, caller: string, into?: CrateRef): Promise<{ crate: Crate; songsAdded: number }> {
    const source = await this.resolve(ref, caller);
    const target = into
      ? await this.editable(into, caller)
      : await this.create(caller, { crateName: `${source.crateName} (copy)`.slice(0, 100), description: source.description });
    const entries = await this.crates.entries(this.crates.fork(), source.id);
    const songsAdded = await this.crates.locked(target, async (em) => {
      let songs = entries.map((e) => e.song);
      if (into) {
        const held = await this.crates.entries(em, target.id);
        const present = new SameSongSet(held.map((e) => e.song));
        songs = songs.filter((song) => {
          if (present.has(song)) return false;
          present.add(song);
          return true;
        });
        if (held.length + songs.length > CRATE_SONGS_MAX) throw badRequest(`A crate holds at most ${CRATE_SONGS_MAX} songs`);
      }
      await this.crates.insertEntries(
        em,
        target.id,
        songs.map((s) => s.id),
        true,
      );
      if (songs.length > 0) await this.crates.touch(em, target.id);
      return songs.length;
    });
    return { crate: (await this.crates.byUuid(target.crateUuid))!, songsAdded };
  }

  async entries(ref: CrateRef, caller: string, page: { limit: number; offset: number }): Promise<{ crate: Crate; entries: CrateEntry[] }> {
    const crate = await this.resolve(ref, caller);
    return { crate, entries: await this.crates.entries(this.crates.fork(), crate.id, page) };
  }

  async add(ref: CrateRef, caller: string, songs: SongToAdd[], append: boolean): Promise<{ crate: Crate; added: CrateEntry[] }> {
    if (songs.length === 0) throw badRequest('songs must list at least one song');
    if (songs.length > MAX_SONGS_PER_ADD) throw badRequest(`At most ${MAX_SONGS_PER_ADD} songs can be added at once`);
    const crate = await this.editable(ref, caller);
    const addedUuids = await this.crates.locked(crate, async (em) => {
      const catalogued = await this.catalogue(em, songs);
      if (crate.songCount + catalogued.length > CRATE_SONGS_MAX) throw badRequest(`A crate holds at most ${CRATE_SONGS_MAX} songs`);
      const uuids = await this.crates.insertEntries(
        em,
        crate.id,
        catalogued.map((s) => s.id),
        append,
      );
      await this.crates.touch(em, crate.id);
      return uuids;
    });
    const all = await this.crates.entries(this.crates.fork(), crate.id);
    const wanted = new Set(addedUuids);
    return { crate: (await this.crates.byUuid(crate.crateUuid))!, added: all.filter((e) => wanted.has(e.crateSongUuid)) };
  }

  async remove(ref: CrateRef, caller: string, crateSongUuid: string): Promise<Crate> {
    const crate = await this.editable(ref, caller);
    const removed = await this.crates.locked(crate, (em) => this.crates.removeEntry(em, crate.id, crateSongUuid));
    if (!removed) throw notFound(SONG_NOT_FOUND);
    return (await this.crates.byUuid(crate.crateUuid))!;
  }

  async move(ref: CrateRef, caller: string, crateSongUuid: string, position: number): Promise<CrateEntry[]> {
    const crate = await this.editable(ref, caller);
    if (!Number.isInteger(position) || position < 0) throw badRequest('position must be a whole number from 0');
    return this.reorder(crate, (entries) => {
      const from = entries.findIndex((e) => e.crateSongUuid === crateSongUuid);
      if (from < 0) throw notFound(SONG_NOT_FOUND);
      return moveItem(entries, from, position);
    });
  }

  /**
   * The room service's requeue: the song the DJ just played moves to the end
   * of their queue (nothing moves if they removed it meanwhile). With `once`
   * (the play's effect key) it moves once per play, whatever the replays.
   */
  async requeue(userUuid: string, crateSongUuid: string, once?: string): Promise<void> {
    const queue = await this.crates.special(userUuid, 'queue');
    await this.crates.locked(queue, async (em) => {
      if (once && !(await this.crates.claimEffect(em, once))) return;
      const entries = await this.crates.entries(em, queue.id);
      const from = entries.findIndex((e) => e.crateSongUuid === crateSongUuid);
      if (from < 0 || from === entries.length - 1) return;
      await this.crates.setOrder(
        em,
        queue.id,
        moveItem(entries, from, entries.length).map((e) => e.id),
      );
      await this.crates.touch(em, queue.id);
    });
  }

  /** The room service's snag: a song a user starred goes into their likes crate, once per `once` (the play and user's key). */
  async snag(userUuid: string, once: string, song: SongToAdd): Promise<boolean> {
    const likes = await this.crates.special(userUuid, 'likes');
    return this.crates.locked(likes, async (em) => {
      if (!(await this.crates.claimEffect(em, once))) return false;
      const catalogued = await this.catalogue(em, [song]);
      if (likes.songCount + catalogued.length > CRATE_SONGS_MAX) throw badRequest(`A crate holds at most ${CRATE_SONGS_MAX} songs`);
      await this.crates.insertEntries(
        em,
        likes.id,
        catalogued.map((s) => s.id),
        true,
      );
      await this.crates.touch(em, likes.id);
      return true;
    });
  }

  async shuffle(ref: CrateRef, caller: string): Promise<CrateEntry[]> {
    return this.reorder(await this.editable(ref, caller), shuffle);
  }

  async clear(ref: CrateRef, caller: string): Promise<Crate> {
    const crate = await this.editable(ref, caller);
    await this.crates.locked(crate, (em) => this.crates.clear(em, crate.id));
    return (await this.crates.byUuid(crate.crateUuid))!;
  }

  async setCurrentPosition(ref: CrateRef, caller: string, currentPosition: number): Promise<Crate> {
    const crate = await this.editable(ref, caller);
    if (!Number.isInteger(currentPosition) || currentPosition < 0 || currentPosition > Math.max(0, crate.songCount - 1)) {
      throw badRequest('currentPosition must point at a song of the crate');
    }
    return this.crates.update(crate, { currentPosition });
  }

  private async reorder(crate: Crate, order: (entries: CrateEntry[]) => CrateEntry[]): Promise<CrateEntry[]> {
    return this.crates.locked(crate, async (em) => {
      const next = order(await this.crates.entries(em, crate.id));
      await this.crates.setOrder(
        em,
        crate.id,
        next.map((e) => e.id),
      );
      await this.crates.touch(em, crate.id);
      return next.map((e, position) => ({ ...e, position }));
    });
  }

  /** Catalogue ids for the songs to add, cataloguing provider songs on the way. */
  private async catalogue(em: EntityManager, songs: SongToAdd[]): Promise<Song[]> {
    const songIds = songs.flatMap((s) => ('songId' in s ? [s.songId] : []));
    const bySongId = new Map((await this.songs.findBySongIds(songIds, em)).map((s) => [s.songId, s]));
    // An id the catalogue does not know as its own may be an upload's: its song while the upload is verified
    // (the upload service's stream is there; a withdrawn upload's is gone).
    const uploadIds = [...new Set(songIds.filter((id) => !bySongId.has(id) && UPLOAD_ID.test(id)))];
    for (const song of await this.songs.findByProviderIds('uploadService', uploadIds, em)) {
      const uploadId = song.musicProviders.uploadService;
      if (uploadId && song.streamUrls.uploadService && !bySongId.has(uploadId)) bySongId.set(uploadId, song);
    }
    const byCatalogueId = new Map(
      (
        await this.songs.findByIds(
          songs.flatMap((s) => ('catalogueId' in s ? [s.catalogueId] : [])),
          em,
        )
      ).map((s) => [s.id, s]),
    );
    const result: Song[] = [];
    for (const song of songs) {
      if ('songId' in song || 'catalogueId' in song) {
        const found = 'songId' in song ? bySongId.get(song.songId) : byCatalogueId.get(song.catalogueId);
        if (!found) throw notFound(SONG_NOT_FOUND);
        result.push(found);
      } else {
        result.push(await this.songs.findOrCreate(em, providerSong(song)));
      }
    }
    return result;
  }
}

function providerSong(song: Extract<SongToAdd, { musicProvider: string }>): NewSong {
  if (!(MUSIC_PROVIDERS as readonly string[]).includes(song.musicProvider))
    throw badRequest(`Unknown music provider: ${song.musicProvider}`);
  if (!song.providerSongId || !song.trackName?.trim() || !song.artistName?.trim()) {
    throw badRequest('A provider song needs songId, trackName and artistName');
  }
  if (!Number.isFinite(song.duration) || song.duration < 0) throw badRequest('duration must be a number of seconds');
  return {
    isrc: (song.isrc ?? '').toUpperCase(),
    trackName: song.trackName.trim(),
    artistName: song.artistName.trim(),
    duration: Math.round(song.duration),
    explicit: song.explicit ?? false,
    genre: song.genre ?? '',
    releaseYear: null,
    albumName: '',
    musicProviders: { [song.musicProvider]: song.providerSongId },
    thumbnails: song.thumbnails ?? {},
    links: {},
    previews: {},
    streamUrls: {},
    status: 'SUCCESS',
    playbackToken: song.playbackToken ?? '',
  };
}
