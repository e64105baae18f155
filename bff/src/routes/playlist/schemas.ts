import type { MinimalCrateSongJson } from '@spinroom/contracts/songs';
import { z } from 'zod';
import '../../http/route.js'; // extends zod with .openapi()
import { LimitOffsetQuery } from '../../http/paging.js';

const providerMap = z.record(z.string(), z.string());

/** A song as crates, the queue and the feed carry it (the original's MinimalCrateSongResDTO, plus its catalogue ids). */
export const CrateSongSchema = z
  .object({
    id: z.number().int(),
    songId: z.string(),
    songShortId: z.string(),
    isrc: z.string(),
    trackName: z.string(),
    artistName: z.string(),
    duration: z.number().int(),
    explicit: z.boolean(),
    genre: z.string(),
    releaseYear: z.number().int().nullable(),
    albumName: z.string(),
    musicProviders: providerMap,
    thumbnails: providerMap,
    links: providerMap,
    previews: providerMap,
    streamUrls: providerMap,
    status: z.string(),
    playbackToken: z.string(),
    crateSongUuid: z.string().optional(),
    position: z.number().int().optional(),
  })
  .openapi('CrateSong');

/** MinimalCrateSongResDTO as the room feed carries it and the recent songs keep it (@spinroom/contracts/songs' shape). */
export const MinimalCrateSongSchema = z
  .object({
    artistName: z.string(),
    trackName: z.string(),
    genre: z.string().nullable(),
    duration: z.number().int(),
    isrc: z.string().nullable(),
    musicProviders: providerMap,
    playbackToken: z.string().nullable(),
    thumbnails: providerMap,
    songShortId: z.string().optional(),
    crateSongUuid: z.string().optional(),
    status: z.string().optional(),
    position: z.number().int().optional(),
    songId: z.string().optional(),
    explicit: z.boolean().optional(),
    links: providerMap.optional(),
    previews: providerMap.optional(),
    streamUrls: providerMap.optional(),
  })
  .openapi('MinimalCrateSong') satisfies z.ZodType<MinimalCrateSongJson>;

/** `GET /song-data/...`: the song with the names the original's clients read there. */
export const SongDataSchema = CrateSongSchema.extend({
  musicProvidersIds: providerMap,
  album: z.object({ name: z.string() }).nullable(),
  artist: z.object({ name: z.string() }),
}).openapi('SongData');

export const CrateSchema = z
  .object({
    crateUuid: z.string(),
    crateShortId: z.string(),
    crateName: z.string(),
    description: z.string(),
    userUuid: z.string(),
    isPublic: z.boolean(),
    special: z.enum(['queue', 'likes']).nullable(),
    crateSongsNumber: z.number().int(),
    currentPosition: z.number().int(),
    importStatus: z.enum(['IN_PROGRESS', 'FAILED', 'COMPLETE']),
    thumbnails: providerMap,
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Crate');

export const PageQuerySchema = LimitOffsetQuery;

/** `{songId}` for a catalogue song (or a verified upload), or a provider song whose `songId` is the provider's own id. */
export const SongToAddSchema = z
  .object({
    songId: z
      .union([z.string().min(1).max(255), z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)])
      .transform(String)
      .openapi({
        description:
          "Without musicProvider: the catalogue's songId, or the songId POST /api/upload-service/upload/song answered once the upload is VERIFIED. With musicProvider: that provider's id for the song",
      }),
    musicProvider: z.string().max(32).optional(),
    artistName: z.string().max(512).optional(),
    trackName: z.string().max(512).optional(),
    // Seconds; clients may send fractions, the catalogue keeps whole seconds (an int32 on the wire).
    duration: z.number().min(0).max(86_400).transform(Math.round).optional(),
    isrc: z.string().max(16).optional(),
    genre: z.string().max(255).optional(),
    playbackToken: z.string().max(1024).optional(),
    explicit: z.boolean().optional(),
    thumbnails: providerMap.optional(),
  })
  .openapi('SongToAdd');

export const AddSongsSchema = z
  .object({ songs: z.array(SongToAddSchema).min(1).max(100), append: z.boolean().default(true) })
  .openapi('AddSongs');

export const CreateCrateSchema = z
  .object({ crateName: z.string().max(100).optional(), isPublic: z.boolean().optional(), description: z.string().max(1000).optional() })
  .openapi('CreateCrate');

export const UpdateCrateSchema = CreateCrateSchema.openapi('UpdateCrate');
