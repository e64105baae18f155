import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Song } from '../domain/song.js';
import { SongEntity } from './entities.js';
import { shortId } from './short-id.js';

export interface Artist {
  artistShortId: string;
  name: string;
  songCount: number;
}

export interface Album {
  albumShortId: string;
  name: string;
  artistShortId: string;
  artistName: string;
  songCount: number;
}

/** Artists, albums and genres of the catalogue, as its songs name them. */
export class PgCatalogueStore {
  constructor(private readonly orm: MikroORM) {}

  /** Files a song under its artist, album and genre (creating them on first sight). */
  async link(em: EntityManager, song: Song): Promise<void> {
    const artistId = await this.upsertId(
      em,
      `insert into "artist" ("artist_short_id", "name") values (?, ?) on conflict (lower("name")) do nothing`,
      [shortId(), song.artistName],
      `select "id" from "artist" where lower("name") = lower(?)`,
      [song.artistName],
    );
    const albumId = song.albumName
      ? await this.upsertId(
          em,
          `insert into "album" ("album_short_id", "name", "artist_id") values (?, ?, ?) on conflict ("artist_id", lower("name")) do nothing`,
          [shortId(), song.albumName, artistId],
          `select "id" from "album" where "artist_id" = ? and lower("name") = lower(?)`,
          [artistId, song.albumName],
        )
      : null;
    if (song.genre) {
      await em.execute(`insert into "genre" ("name") values (?) on conflict (lower("name")) do nothing`, [song.genre]);
    }
    await em.execute(`update "song" set "artist_id" = ?, "album_id" = ? where "id" = ?`, [artistId, albumId, song.id]);
  }

  async genres(options: { limit: number; idIn: number[]; prefix: string }): Promise<Array<{ id: number; name: string }>> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (options.idIn.length > 0) {
      where.push(`"id" in (?)`);
      params.push(options.idIn);
    }
    if (options.prefix) {
      where.push(`lower("name") like ?`);
      params.push(`${options.prefix.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    }
    return this.orm.em
      .fork()
      .execute(`select "id", "name" from "genre" ${where.length ? `where ${where.join(' and ')}` : ''} order by lower("name") limit ?`, [
        ...params,
        options.limit,
      ]);
  }

  async artists(take: number, skip: number): Promise<{ artists: Artist[]; total: number }> {
    const em = this.orm.em.fork();
    const rows = await em.execute<Array<{ artist_short_id: string; name: string; song_count: number; total: number }>>(
      `select a."artist_short_id", a."name", count(s."id")::int as song_count, count(*) over ()::int as total
       from "artist" a left join "song" s on s."artist_id" = a."id"
       group by a."id" order by lower(a."name"), a."id" limit ? offset ?`,
      [take, skip],
    );
    return {
      artists: rows.map((r) => ({ artistShortId: r.artist_short_id, name: r.name, songCount: r.song_count })),
      total: rows[0]?.total ?? (skip === 0 ? 0 : await this.count(em, 'artist')),
    };
  }

  async albums(options: { take: number; skip: number; artistShortIds: string[] }): Promise<{ albums: Album[]; total: number }> {
    const em = this.orm.em.fork();
    const filter = options.artistShortIds.length > 0 ? `where ar."artist_short_id" in (?)` : '';
    const rows = await em.execute<Array<AlbumRow & { total: number }>>(
      `${ALBUM_SELECT}, count(*) over ()::int as total ${ALBUM_FROM} ${filter}
       group by al."id", ar."id" order by lower(ar."name"), lower(al."name") limit ? offset ?`,
      [...(filter ? [options.artistShortIds] : []), options.take, options.skip],
    );
    return { albums: rows.map(toAlbum), total: rows[0]?.total ?? 0 };
  }

  async album(albumShortId: string): Promise<Album | null> {
    const rows = await this.orm.em
      .fork()
      .execute<AlbumRow[]>(`${ALBUM_SELECT} ${ALBUM_FROM} where al."album_short_id" = ? group by al."id", ar."id"`, [albumShortId]);
    return rows[0] ? toAlbum(rows[0]) : null;
  }

  async albumSongs(albumShortId: string, take: number, skip: number): Promise<Song[]> {
    const em = this.orm.em.fork();
    const ids = await em.execute<Array<{ id: number }>>(
      `select s."id" from "song" s join "album" al on al."id" = s."album_id" where al."album_short_id" = ? order by s."id" limit ? offset ?`,
      [albumShortId, take, skip],
    );
    return ids.length === 0 ? [] : em.find(SongEntity, { id: { $in: ids.map((r) => r.id) } }, { orderBy: { id: 'asc' } });
  }

  private async upsertId(
    em: EntityManager,
    insert: string,
    insertParams: unknown[],
    select: string,
    selectParams: unknown[],
  ): Promise<number> {
    await em.execute(insert, insertParams);
    const [row] = await em.execute<Array<{ id: number }>>(select, selectParams);
    return row!.id;
  }

  private async count(em: EntityManager, table: 'artist' | 'album'): Promise<number> {
    const [row] = await em.execute<Array<{ n: number }>>(`select count(*)::int as n from "${table}"`);
    return row?.n ?? 0;
  }
}

interface AlbumRow {
  album_short_id: string;
  name: string;
  artist_short_id: string;
  artist_name: string;
  song_count: number;
}

const ALBUM_SELECT = `select al."album_short_id", al."name", ar."artist_short_id", ar."name" as artist_name, count(s."id")::int as song_count`;
const ALBUM_FROM = `from "album" al join "artist" ar on ar."id" = al."artist_id" left join "song" s on s."album_id" = al."id"`;

function toAlbum(r: AlbumRow): Album {
  return {
    albumShortId: r.album_short_id,
    name: r.name,
    artistShortId: r.artist_short_id,
    artistName: r.artist_name,
    songCount: r.song_count,
  };
}
