import type { PlaylistServiceServer } from '@spinroom/contracts/playlist/v1/playlist_service';
import { MinimalCrateSong } from '@spinroom/contracts/room/v1/minimal_crate_song';
import { songToJson } from '@spinroom/contracts/songs';
import {
  badRequest,
  forbidden,
  isAdminRole,
  isUuid,
  MAX_PAGE_SIZE as MAX_PAGE,
  notFound,
  pageOf as page,
  requireService,
  type createUnaryFactory,
} from '@spinroom/platform';
import type { PgCatalogueStore } from '../db/catalogue-store.js';
import type { PgSongPlayStore } from '../db/song-play-store.js';
import type { PgSongStore } from '../db/song-store.js';
import type { SongSearch } from '../domain/song-search.js';
import { SONG_NOT_FOUND, type Crates } from '../domain/crates.js';
import type { SongData } from '../domain/song-data.js';
import type { AnalysisWebhook } from '../domain/analysis.js';
import type { CrateImports } from '../domain/crate-imports.js';
import type { CrateExports } from '../domain/exports.js';
import { completedLinks } from '../domain/links.js';
import { choosePreview, chooseStream, previewOrNotFound, streamCountry, streamQuality, type SongStream } from '../domain/streams.js';
import type { SevenDigitalProvider } from '../providers/index.js';
import { toCrateMessage, toCrateRef, toCrateSongMessage, toSongMessage, toSongToAdd } from './messages.js';

const QUEUE = { special: 'queue' as const };

function userUuid(value: string): string {
  if (!isUuid(value)) throw badRequest('user_uuid must be a uuid');
  return value;
}

/** gRPC handlers of spinroom.playlist.v1.PlaylistService: the caller comes from the token; rules live in domain/. */
export function playlistServiceHandlers(deps: {
  crates: Crates;
  songs: PgSongStore;
  search: SongSearch;
  catalogue: PgCatalogueStore;
  songData: SongData;
  plays: PgSongPlayStore;
  sevenDigital: SevenDigitalProvider;
  imports: CrateImports;
  wakeImports: () => void;
  exports: CrateExports;
  analysis: AnalysisWebhook;
  now?: () => number;
  unary: ReturnType<typeof createUnaryFactory>;
}): PlaylistServiceServer {
  const { crates, songs, search, catalogue, songData, plays, sevenDigital, imports, exports, analysis, unary } = deps;
  const now = deps.now ?? Date.now;
  const songById = async (id: string) => {
    const [song] = id ? await songs.findByAnyIds([id]) : [];
    if (!song) throw notFound(SONG_NOT_FOUND);
    return song;
  };
  return {
    createCrate: unary(async (req, ctx) => ({
      crate: toCrateMessage(await crates.create(ctx.caller.userUuid, req)),
    })),
    listOwnCrates: unary(async (req, ctx) => {
      const { crates: list, total } = await crates.listOwn(ctx.caller.userUuid, page(req));
      return { crates: list.map(toCrateMessage), total };
    }),
    listUserCrates: unary(async (req) => {
      if (!/^[0-9a-f-]{36}$/i.test(req.userUuid)) return { crates: [], total: 0 };
      const { crates: list, total } = await crates.listPublic(req.userUuid, page(req));
      return { crates: list.map(toCrateMessage), total };
    }),
    listPublicCrates: unary(async (req) => {
      const { crates: list, total } = await crates.listAllPublic(page(req));
      return { crates: list.map(toCrateMessage), total };
    }),
    browsePublicCrates: unary(async (req) => {
      const { crates: list, total } = await crates.browsePublic(req.query, page(req));
      return { crates: list.map(toCrateMessage), total };
    }),
    getCrate: unary(async (req, ctx) => ({
      crate: toCrateMessage(await crates.resolve(toCrateRef(req.crate), ctx.caller.userUuid)),
    })),
    updateCrate: unary(async (req, ctx) => ({
      crate: toCrateMessage(await crates.update(toCrateRef(req.crate), ctx.caller.userUuid, req)),
    })),
    deleteCrate: unary(async (req, ctx) => {
      await crates.delete(toCrateRef(req.crate), ctx.caller.userUuid);
      return {};
    }),
    copyCrate: unary(async (req, ctx) => {
      const into = req.into ? toCrateRef(req.into) : undefined;
      const { crate, songsAdded } = await crates.copy(toCrateRef(req.crate), ctx.caller.userUuid, into);
      return { crate: toCrateMessage(crate), songsAdded };
    }),
    listCrateSongs: unary(async (req, ctx) => {
      const { crate, entries } = await crates.entries(toCrateRef(req.crate), ctx.caller.userUuid, page(req, 50));
      return { crate: toCrateMessage(crate), songs: entries.map(toCrateSongMessage) };
    }),
    addCrateSongs: unary(async (req, ctx) => {
      const { crate, added } = await crates.add(toCrateRef(req.crate), ctx.caller.userUuid, req.songs.map(toSongToAdd), req.append);
      return { crate: toCrateMessage(crate), added: added.map(toCrateSongMessage) };
    }),
    removeCrateSong: unary(async (req, ctx) => ({
      crate: toCrateMessage(await crates.remove(toCrateRef(req.crate), ctx.caller.userUuid, req.crateSongUuid)),
    })),
    moveCrateSong: unary(async (req, ctx) => ({
      songs: (await crates.move(toCrateRef(req.crate), ctx.caller.userUuid, req.crateSongUuid, req.position)).map(toCrateSongMessage),
    })),
    shuffleCrate: unary(async (req, ctx) => ({
      songs: (await crates.shuffle(toCrateRef(req.crate), ctx.caller.userUuid)).map(toCrateSongMessage),
    })),
    clearCrate: unary(async (req, ctx) => ({
      crate: toCrateMessage(await crates.clear(toCrateRef(req.crate), ctx.caller.userUuid)),
    })),
    setCurrentPosition: unary(async (req, ctx) => ({
      crate: toCrateMessage(await crates.setCurrentPosition(toCrateRef(req.crate), ctx.caller.userUuid, req.currentPosition)),
    })),
    getDjQueue: unary(async (req, ctx) => {
      requireService(ctx.caller);
      const { entries } = await crates.entries(QUEUE, userUuid(req.userUuid), page({ limit: req.limit, offset: 0 }, 10));
      return { songs: entries.map(toCrateSongMessage) };
    }),
    requeuePlayedSong: unary(async (req, ctx) => {
      requireService(ctx.caller);
      if (req.playId && !isUuid(req.playId)) throw badRequest('play_id must be a uuid');
      await crates.requeue(userUuid(req.userUuid), req.crateSongUuid, req.playId ? `requeue:${req.playId}` : undefined);
      const { entries } = await crates.entries(QUEUE, req.userUuid, { limit: 10, offset: 0 });
      return { songs: entries.map(toCrateSongMessage) };
    }),
    snagSong: unary(async (req, ctx) => {
      requireService(ctx.caller);
      if (!isUuid(req.playId)) throw badRequest('play_id must be a uuid');
      if (!req.song) throw badRequest('song is required');
      return { added: await crates.snag(userUuid(req.userUuid), `snag:${req.playId}:${req.userUuid}`, toSongToAdd(req.song)) };
    }),
    listRecentSongs: unary(async (req) => {
      if (!isUuid(req.roomUuid)) throw badRequest('room_uuid must be a uuid');
      const { plays: list, total } = await plays.recent(req.roomUuid, page(req));
      return {
        // Stored songs are the feed's JSON (songToJson's shape, `{}` when an event had none): read tolerantly.
        songPlays: list.map(({ song, voteCounts, ...p }) => ({ ...p, song: MinimalCrateSong.fromJSON(song), ...voteCounts })),
        total,
      };
    }),
    recordSongPlay: unary(async (req, ctx) => {
      requireService(ctx.caller);
      const p = req.songPlay;
      if (!p || !isUuid(p.playId) || !isUuid(p.roomUuid) || !isUuid(p.djUuid)) throw badRequest('song_play needs play, room and DJ uuids');
      if (!p.song) throw badRequest('song_play needs its song');
      const song = { ...songToJson(p.song) };
      await plays.record({
        playId: p.playId,
        roomUuid: p.roomUuid,
        djUuid: p.djUuid,
        song,
        voteCounts: { likes: p.likes, dislikes: p.dislikes, stars: p.stars },
        playedAt: p.playedAt ?? new Date(),
      });
      return {};
    }),
    getSong: unary(async (req) => {
      const [song] = await songs.findBySongIds([req.songId]);
      if (!song) throw notFound(SONG_NOT_FOUND);
      return { song: toSongMessage(song) };
    }),
    listSongs: unary(async (req) => {
      if (req.songIds.length > 0) {
        const found = await songs.findBySongIds(req.songIds.slice(0, MAX_PAGE));
        return { songs: found.map(toSongMessage), total: found.length };
      }
      const { songs: list, total } = await songs.list(page(req).limit, page(req).offset);
      return { songs: list.map(toSongMessage), total };
    }),
    searchSongs: unary(async (req) => {
      if (!req.query.trim()) throw badRequest('q must not be empty');
      if (req.query.length > 200) throw badRequest('q must be at most 200 characters');
      if (!Number.isSafeInteger(req.catalogueGeneration) || req.catalogueGeneration < 0)
        throw badRequest('catalogueGeneration must be a generation');
      const found = await search.search({
        text: req.query,
        ...page(req),
        includeExplicit: req.includeExplicit,
        generation: req.catalogueGeneration,
      });
      return { songs: found.map(toSongMessage) };
    }),
    getSongByShortId: unary(async (req) => {
      const song = await songs.findByShortId(req.songShortId);
      if (!song) throw notFound(SONG_NOT_FOUND);
      return { song: toSongMessage(song) };
    }),
    listGenres: unary(async (req) => {
      const limit = req.limit === 0 ? 1024 : req.limit;
      if (limit < 1 || limit > 1024) throw badRequest('limit must be 1 to 1024');
      return { genres: await catalogue.genres({ limit, idIn: req.idIn, prefix: req.prefix.trim() }) };
    }),
    listArtists: unary(async (req) => {
      const { limit, offset } = page({ limit: req.take, offset: req.skip });
      return catalogue.artists(limit, offset);
    }),
    listAlbums: unary(async (req) => {
      const { limit, offset } = page({ limit: req.take, offset: req.skip });
      return catalogue.albums({ take: limit, skip: offset, artistShortIds: req.artistShortIds.slice(0, MAX_PAGE) });
    }),
    listMusicProviders: unary(async () => {
      return { providers: songData.list() };
    }),
    searchProvider: unary(async (req) => {
      if (!req.query.trim()) return { songs: [] };
      const found = await songData.search(req.musicProvider, req.query, {
        limit: req.limit || undefined,
        offset: req.offset,
        country: req.country || undefined,
      });
      return { songs: found.map((song) => toSongMessage({ ...song, id: 0, songId: '', songShortId: '' })) };
    }),
    getSongData: unary(async (req) => {
      return { song: toSongMessage(await songData.songData(req.musicProvider, req.providerSongId, req.country || undefined)) };
    }),
    getSongDataByLink: unary(async (req) => {
      if (req.link.length > 2048) throw badRequest('link must be at most 2048 characters');
      return { song: toSongMessage(await songData.fromLink(req.link, req.country || undefined)) };
    }),
    importTrack: unary(async (req) => {
      return { song: toSongMessage(await songData.importTrack(req.musicProviders, req.country || undefined)) };
    }),
    getSongStream: unary(async (req) => {
      const options = { country: streamCountry(req.country), quality: streamQuality(req.quality) };
      return { stream: toStreamMessage(chooseStream(await songById(req.songId), sevenDigital, options, now())) };
    }),
    getSongPreview: unary(async (req) => {
      const song = await songById(req.songId);
      return { stream: toStreamMessage(previewOrNotFound(choosePreview(song, sevenDigital, streamCountry(req.country), now()))) };
    }),
    getSongsByIds: unary(async (req) => {
      if (req.ids.length > MAX_PAGE) throw badRequest(`At most ${MAX_PAGE} ids at once`);
      return { songs: (await songs.findByAnyIds(req.ids)).map(toSongMessage) };
    }),
    migrateSongLinks: unary(async (_req, ctx) => {
      const caller = ctx.caller;
      if (!isAdminRole(caller.role)) throw forbidden('Only admins may run this job');
      return songs.rewriteLinks((song) => completedLinks(song.musicProviders, song.links));
    }),
    importCrate: unary(async (req, ctx) => {
      const caller = ctx.caller;
      const crate = await imports.start(caller.userUuid, {
        musicProvider: req.musicProvider,
        playlistId: req.playlistId,
        crateName: req.crateName,
        country: req.country,
      });
      deps.wakeImports();
      return { crate: toCrateMessage(crate) };
    }),
    exportCrate: unary(async (req, ctx) => {
      const caller = ctx.caller;
      const result = await exports.export(caller.userUuid, toCrateRef(req.crate), {
        musicProvider: req.musicProvider,
        userToken: req.userToken,
        playlistName: req.playlistName,
        country: req.country || undefined,
      });
      return { ...result, missing: result.missing.map(toSongMessage) };
    }),
    // Public: the webhook proves itself with its signature.
    recordAnalysisWebhook: unary.public(async (req) => analysis.record(Buffer.from(req.body), req.signature)),
    listAlbumSongs: unary(async (req) => {
      const album = await catalogue.album(req.albumShortId);
      if (!album) throw notFound('Album not found');
      const { limit, offset } = page({ limit: req.take, offset: req.skip }, 50);
      return { album, songs: (await catalogue.albumSongs(req.albumShortId, limit, offset)).map(toSongMessage) };
    }),
  };
}

function toStreamMessage(stream: SongStream) {
  return { ...stream, expiresAt: stream.expiresAt };
}
