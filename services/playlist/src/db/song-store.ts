import { randomUUID } from 'node:crypto';
import { LockMode, type EntityManager, type MikroORM } from '@mikro-orm/postgresql';
import { isSameSong, type Song, type SongIdentity } from '../domain/song.js';
import type { PgCatalogueStore } from './catalogue-store.js';
import { SongEntity } from './entities.js';
import { shortId } from './short-id.js';

export type NewSong = Omit<Song, 'id' | 'songId' | 'songShortId'>;

/** The song catalogue. */
export class PgSongStore {
  constructor(
    private readonly orm: MikroORM,
    private readonly catalogue: PgCatalogueStore,
  ) {}

  async findBySongIds(songIds: string[], em: EntityManager = this.orm.em.fork()): Promise<Song[]> {
    const valid = songIds.filter((id) => /^[0-9a-f-]{36}$/i.test(id));
    return valid.length === 0 ? [] : em.find(SongEntity, { songId: { $in: valid } });
  }

  /**
   * Songs by a provider's ids for them (e.g. `uploadService` and the upload's songId); unknown ids are left out.
   * Containment (`@>`), so the GIN index on `music_providers` answers.
   */
  async findByProviderIds(provider: string, providerSongIds: string[], em: EntityManager = this.orm.em.fork()): Promise<Song[]> {
    if (providerSongIds.length === 0) return [];
    const rows = await em.execute<{ id: number }[]>(
      `select "id" from "song" where ${providerSongIds.map(() => `"music_providers" @> ?::jsonb`).join(' or ')}`,
      providerSongIds.map((id) => JSON.stringify({ [provider]: id })),
    );
    return this.findByIds(
      rows.map((r) => Number(r.id)),
      em,
    );
  }

  /** Songs by catalogue uuid or numeric id (mixed), in the order asked; unknown ids are left out. */
  async findByAnyIds(ids: string[]): Promise<Song[]> {
    const em = this.orm.em.fork();
    const numeric = ids.filter((id) => /^\d{1,15}$/.test(id)).map(Number);
    const [byUuid, byId] = await Promise.all([this.findBySongIds(ids, em), this.findByIds(numeric, em)]);
    const found = new Map<string, Song>([...byUuid.map((s) => [s.songId, s] as const), ...byId.map((s) => [String(s.id), s] as const)]);
    return ids.flatMap((id) => found.get(id) ?? []);
  }

  async findByProviderId(provider: string, providerSongId: string): Promise<Song | null> {
    return this.orm.em.fork().findOne(SongEntity, { musicProviders: { [provider]: providerSongId } });
  }

  async findByShortId(songShortId: string): Promise<Song | null> {
    return this.orm.em.fork().findOne(SongEntity, { songShortId });
  }

  async findByIds(ids: number[], em: EntityManager): Promise<Song[]> {
    return ids.length === 0 ? [] : em.find(SongEntity, { id: { $in: ids } });
  }

  /**
   * Rewrites the links of every song for which `complete` answers new ones,
   * a batch at a time (each its own transaction, rows locked), so the job can
   * run beside live traffic and be run again.
   */
  async rewriteLinks(
    complete: (song: Song) => Record<string, string> | null,
    batchSize = 500,
  ): Promise<{ scanned: number; changed: number }> {
    let scanned = 0;
    let changed = 0;
    let after = 0;
    for (;;) {
      const batch = await this.orm.em.fork().transactional(async (em) => {
        const songs = await em.find(
          SongEntity,
          { id: { $gt: after } },
          { orderBy: { id: 'asc' }, limit: batchSize, lockMode: LockMode.PESSIMISTIC_WRITE },
        );
        for (const song of songs) {
          const links = complete(song);
          if (!links) continue;
          song.links = links;
          song.updatedAt = new Date();
          changed += 1;
        }
        await em.flush();
        return songs;
      });
      scanned += batch.length;
      if (batch.length < batchSize) return { scanned, changed };
      after = batch.at(-1)!.id;
    }
  }

  async list(limit: number, offset: number): Promise<{ songs: Song[]; total: number }> {
    const [songs, total] = await this.orm.em.fork().findAndCount(SongEntity, {}, { orderBy: { id: 'asc' }, limit, offset });
    return { songs, total };
  }

  /**
   * The catalogue song that is the same as `song` by the sameness rule, or a
   * new one. Runs in the caller's transaction; an advisory lock on the song's
   * names serialises two adds of one new song.
   */
  async findOrCreate(em: EntityManager, song: NewSong): Promise<Song> {
    await em.execute(`select pg_advisory_xact_lock(hashtext(lower(?) || '|' || lower(?)))`, [song.trackName, song.artistName]);
    const found = await this.findSame(em, song);
    if (found) return this.mergeProviders(em, found, song);
    const now = new Date();
    const created = em.create(SongEntity, { ...song, songId: randomUUID(), songShortId: shortId(), createdAt: now, updatedAt: now });
    await em.flush();
    await this.catalogue.link(em, created);
    return created;
  }

  /** Creates or updates the song a provider knows by `providerSongId` (e.g. an upload's tags edited). */
  async upsertProviderSong(em: EntityManager, provider: string, providerSongId: string, song: NewSong): Promise<Song> {
    const existing = await em.findOne(SongEntity, { musicProviders: { [provider]: providerSongId } });
    if (!existing) return this.findOrCreate(em, song);
    em.assign(existing, {
      trackName: song.trackName,
      artistName: song.artistName,
      duration: song.duration,
      genre: song.genre || existing.genre,
      isrc: song.isrc || existing.isrc,
      status: song.status,
      streamUrls: { ...existing.streamUrls, ...song.streamUrls },
      updatedAt: new Date(),
    });
    await em.flush();
    await this.catalogue.link(em, existing);
    return existing;
  }

  /** A provider stopped offering a song: it can no longer be streamed from there. */
  async withdrawProviderSong(em: EntityManager, provider: string, providerSongId: string): Promise<void> {
    const existing = await em.findOne(SongEntity, { musicProviders: { [provider]: providerSongId } });
    if (!existing) return;
    const { [provider]: _gone, ...streamUrls } = existing.streamUrls;
    em.assign(existing, {
      streamUrls,
      status: Object.keys(streamUrls).length === 0 ? 'UNVERIFIED' : existing.status,
      updatedAt: new Date(),
    });
    await em.flush();
  }

  private async findSame(em: EntityManager, song: NewSong): Promise<Song | null> {
    const providerMatches = Object.entries(song.musicProviders).map(([provider, id]) => ({ musicProviders: { [provider]: id } }));
    const candidates = await em.find(
      SongEntity,
      {
        $or: [
          ...(song.isrc ? [{ isrc: song.isrc.toUpperCase() }] : []),
          ...providerMatches,
          { trackName: { $ilike: escapeLike(song.trackName.trim()) }, artistName: { $ilike: escapeLike(song.artistName.trim()) } },
        ],
      },
      { limit: 20, orderBy: { id: 'asc' } },
    );
    const identity: SongIdentity = song;
    return candidates.find((c) => isSameSong(c, identity)) ?? null;
  }

  /** A known song heard of through another provider learns that provider's id. */
  private async mergeProviders(em: EntityManager, found: Song, song: NewSong): Promise<Song> {
    const missing = Object.entries(song.musicProviders).filter(([provider]) => !(provider in found.musicProviders));
    if (missing.length === 0) return found;
    const entity = await em.findOneOrFail(SongEntity, { id: found.id });
    entity.musicProviders = { ...entity.musicProviders, ...Object.fromEntries(missing) };
    entity.thumbnails = { ...song.thumbnails, ...entity.thumbnails };
    entity.updatedAt = new Date();
    await em.flush();
    return entity;
  }
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
