import {
  SongStatus as SongStatusMessage,
  type Song as SongMessage,
  type UploadServiceServer,
  type UploadSongRequest,
} from '@spinroom/contracts/upload/v1/upload_service';
import { badRequest, type createClientStreamingFactory, type createUnaryFactory } from '@spinroom/platform';
import { hlsPlaylistPath, type Song, type SongStatus } from '../domain/song.js';
import type { Songs, UploadPart } from '../domain/songs.js';

const STATUS: Record<SongStatus, SongStatusMessage> = {
  PENDING_UPLOAD: SongStatusMessage.SONG_STATUS_PENDING_UPLOAD,
  VALID_FILE_TYPE: SongStatusMessage.SONG_STATUS_VALID_FILE_TYPE,
  MISSING_METADATA: SongStatusMessage.SONG_STATUS_MISSING_METADATA,
  VERIFIED: SongStatusMessage.SONG_STATUS_VERIFIED,
  UNVERIFIED: SongStatusMessage.SONG_STATUS_UNVERIFIED,
  VERIFICATION_ERROR: SongStatusMessage.SONG_STATUS_VERIFICATION_ERROR,
  VERIFICATION_POSTPONED: SongStatusMessage.SONG_STATUS_VERIFICATION_POSTPONED,
};

export function toSongMessage(song: Song): SongMessage {
  return {
    songId: song.id,
    uploaderUuid: song.uploaderUuid,
    status: STATUS[song.status],
    trackName: song.trackName ?? undefined,
    artistName: song.artistName ?? undefined,
    genre: song.genre ?? undefined,
    isrc: song.isrc ?? undefined,
    durationSeconds: Math.round(song.durationMs / 1000),
    durationMs: song.durationMs,
    fileName: song.fileName,
    contentType: song.contentType,
    sizeBytes: song.sizeBytes,
    createdAt: song.createdAt,
    updatedAt: song.updatedAt,
    verifiedAt: song.verifiedAt ?? undefined,
    hlsPlaylistPath: hlsPlaylistPath(song.id),
  };
}

/** The stream's messages as upload parts; a message with no part is a malformed call. */
async function* uploadParts(messages: AsyncIterable<UploadSongRequest>): AsyncGenerator<UploadPart> {
  for await (const { part } of messages) {
    if (!part) throw badRequest('Empty upload message');
    if (part.$case === 'chunk') yield { kind: 'chunk', data: part.value };
    else if (part.$case === 'file') yield { kind: 'file', fileName: part.value.fileName, contentType: part.value.contentType };
    else if (part.$case === 'end') yield { kind: 'end', sizeBytes: part.value.sizeBytes };
    else {
      const { trackName, artistName, genre, isrc } = part.value;
      const fields = Object.fromEntries(Object.entries({ trackName, artistName, genre, isrc }).filter(([, v]) => v !== undefined));
      yield { kind: 'fields', fields };
    }
  }
}

/** gRPC handlers of spinroom.upload.v1.UploadService: check the caller, delegate to the domain. */
export function uploadServiceHandlers(deps: {
  songs: Songs;
  unary: ReturnType<typeof createUnaryFactory>;
  clientStream: ReturnType<typeof createClientStreamingFactory>;
}): UploadServiceServer {
  const { songs, unary, clientStream } = deps;
  const page = <P extends { limit: number; offset: number } | undefined>(p: P) => ({ limit: p?.limit ?? 0, offset: p?.offset ?? 0 });
  return {
    uploadSong: clientStream(async (messages, context) => ({
      song: toSongMessage(await songs.upload(context.caller, uploadParts(messages), context.signal)),
    })),
    getSong: unary(async (request, context) => ({ song: toSongMessage(await songs.get(context.caller, request.songId)) })),
    listOwnSongs: unary(async (request, context) => {
      const { songs: list, total } = await songs.listOwn(context.caller, request.verified, page(request.page));
      return { songs: list.map(toSongMessage), total };
    }),
    listPublicSongs: unary(async (request) => {
      const { songs: list, total } = await songs.listPublic(page(request.page));
      return { songs: list.map(toSongMessage), total };
    }),
    searchSongs: unary(async (request, context) => {
      const { songs: list, total } = await songs.search(context.caller, request.term, page(request.page));
      return { songs: list.map(toSongMessage), total };
    }),
    updateSong: unary(async (request, context) => {
      const { songId, unverified, trackName, artistName, genre, isrc } = request;
      const tags = Object.fromEntries(Object.entries({ trackName, artistName, genre, isrc }).filter(([, v]) => v !== undefined));
      const song = await songs.update(context.caller, songId, { ...tags, ...(unverified !== undefined ? { unverified } : {}) });
      return { song: toSongMessage(song) };
    }),
    deleteSong: unary(async (request, context) => {
      await songs.delete(context.caller, request.songId);
      return {};
    }),
    getHlsPlaylist: unary(async (request, context) => {
      const { playlist, keyTokenExpiresAt } = await songs.hlsPlaylist(context.caller, request.songId);
      return { playlist, keyTokenExpiresAt };
    }),
    getHlsKey: unary.public(async (request) => ({ key: await songs.hlsKey(request) })),
    getHlsSegment: unary.public(async (request) => songs.hlsSegment(request.songId, request.segment)),
    recordTranscoderNotification: unary.public(async (request) => {
      const { song, changed } = await songs.recordTranscoderNotification(request);
      return { song: toSongMessage(song), changed };
    }),
  };
}
