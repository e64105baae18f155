import { CrateRef, SpecialCrate, type PlaylistServiceClient, type SongToAdd } from '@spinroom/contracts/playlist/v1/playlist_service';
import type { PromiseClient } from '@spinroom/platform/core';
import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route.js';
import {
  AddSongsSchema,
  CrateSchema,
  CrateSongSchema,
  CreateCrateSchema,
  PageQuerySchema,
  type SongToAddSchema,
  UpdateCrateSchema,
} from './schemas.js';
import { crateJson, crateSongJson } from './views.js';
import { pageOffset, pageSize, TakeSkipQuery } from '../../http/paging.js';
import { Position, SerialId } from '../../http/ids.js';

export type PlaylistClient = PromiseClient<PlaylistServiceClient>;

const BASE = '/api/playlist-service';

/** The three ways a crate is named in paths: by uuid, or the caller's queue or likes. */
const CRATE_PATHS: Array<{ path: string; label: string; ref: (params: Record<string, string>) => CrateRef; params?: z.ZodObject }> = [
  { path: '/crate/special/queue', label: 'the queue', ref: () => CrateRef.fromPartial({ special: SpecialCrate.SPECIAL_CRATE_QUEUE }) },
  {
    path: '/crate/special/likes',
    label: 'the likes crate',
    ref: () => CrateRef.fromPartial({ special: SpecialCrate.SPECIAL_CRATE_LIKES }),
  },
  {
    path: '/crate/{crateUuid}',
    label: 'a crate',
    ref: (p) => CrateRef.fromPartial({ crateUuid: p.crateUuid! }),
    params: z.object({ crateUuid: z.uuid() }),
  },
];

const PublicCratesQuery = z.object({
  q: z.string().max(200).default('').openapi({ description: "Words of the crate's name or description; empty lists them all" }),
  limit: pageSize(),
  offset: pageOffset(),
});

const CopyQuery = z.object({
  into: z
    .union([z.enum(['queue', 'likes']), z.uuid()])
    .optional()
    .openapi({ description: "Where the songs go: 'queue', 'likes' or the uuid of a crate of the caller's; without it, a new crate" }),
});

function intoRef(into: string): CrateRef {
  if (into === 'queue') return CrateRef.fromPartial({ special: SpecialCrate.SPECIAL_CRATE_QUEUE });
  if (into === 'likes') return CrateRef.fromPartial({ special: SpecialCrate.SPECIAL_CRATE_LIKES });
  return CrateRef.fromPartial({ crateUuid: into });
}

function toSongToAdd(song: z.infer<typeof SongToAddSchema>): SongToAdd {
  // With a provider, `songId` is that provider's id for the song; without, a catalogue id.
  return {
    songId: song.musicProvider ? '' : song.songId,
    catalogueId: 0,
    musicProvider: song.musicProvider ?? '',
    providerSongId: song.musicProvider ? song.songId : '',
    artistName: song.artistName ?? '',
    trackName: song.trackName ?? '',
    duration: song.duration ?? 0,
    isrc: song.isrc ?? '',
    genre: song.genre ?? '',
    playbackToken: song.playbackToken ?? '',
    explicit: song.explicit ?? false,
    thumbnails: song.thumbnails ?? {},
  };
}

/** /crate: crates, the queue and likes, and their songs. */
export function crateRoutes(deps: RouteDeps, playlists: PlaylistClient): void {
  const tags = ['crates'];
  const page = (q: z.infer<typeof PageQuerySchema>) => ({ limit: q.limit ?? 20, offset: q.offset ?? 0 });

  route(deps, {
    method: 'post',
    path: `${BASE}/crate`,
    summary: "Create a crate (default name 'New Playlist #n')",
    tags,
    status: 201,
    body: CreateCrateSchema,
    response: CrateSchema,
    handler: async ({ body }) =>
      crateJson(
        (
          await playlists.createCrate({
            crateName: body.crateName ?? '',
            isPublic: body.isPublic ?? false,
            description: body.description ?? '',
          })
        ).crate,
      ),
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/crate/user`,
    summary: "The caller's crates (queue and likes first)",
    tags,
    query: PageQuerySchema,
    response: z.object({ crates: z.array(CrateSchema), count: z.number().int() }),
    handler: async ({ query }) => {
      const { crates, total } = await playlists.listOwnCrates(page(query));
      return { crates: crates.map(crateJson), count: total };
    },
  });

  const TakeSkip = TakeSkipQuery;
  route(deps, {
    method: 'get',
    path: `${BASE}/crate/service/all-crates`,
    summary: 'Every public crate, newest first (service and SEO)',
    tags,
    query: TakeSkip,
    response: z.object({ crates: z.array(CrateSchema), total: z.number().int() }),
    handler: async ({ query }) => {
      const { crates, total } = await playlists.listPublicCrates({ limit: query.take, offset: query.skip });
      return { crates: crates.map(crateJson), total };
    },
  });
  // Spinroom's own path (spec 002 lists only the services' all-crates): what people browse to play from or copy.
  route(deps, {
    method: 'get',
    path: `${BASE}/crate/public`,
    summary:
      'Public crates with songs, to play from or copy: q (at most 200 characters) matches the name or description in any case, names equal to it or starting with it first; then the most songs, then the newest',
    tags,
    query: PublicCratesQuery,
    response: z.object({ crates: z.array(CrateSchema), total: z.number().int() }),
    handler: async ({ query }) => {
      const { crates, total } = await playlists.browsePublicCrates({ query: query.q, limit: query.limit, offset: query.offset });
      return { crates: crates.map(crateJson), total };
    },
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/crate/service/{crateShortId}/songs`,
    summary: "A public crate's songs, by its short id (service and SEO)",
    tags,
    params: z.object({ crateShortId: z.string().max(16) }),
    query: TakeSkip,
    errors: [404],
    response: CrateSchema.extend({ songs: z.array(CrateSongSchema) }),
    handler: async ({ params, query }) => {
      const { crate, songs } = await playlists.listCrateSongs({
        crate: CrateRef.fromPartial({ crateShortId: params.crateShortId }),
        limit: query.take,
        offset: query.skip,
      });
      return { ...crateJson(crate), songs: songs.map(crateSongJson) };
    },
  });
  route(deps, {
    method: 'get',
    path: `${BASE}/crate/user/service/{userUuid}`,
    summary: "A user's public crates (service and SEO)",
    tags,
    params: z.object({ userUuid: z.uuid() }),
    query: TakeSkip,
    response: z.object({ crates: z.array(CrateSchema), total: z.number().int() }),
    handler: async ({ params, query }) => {
      const { crates, total } = await playlists.listUserCrates({ userUuid: params.userUuid, limit: query.take, offset: query.skip });
      return { crates: crates.map(crateJson), total };
    },
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/crate/user/{userUuid}`,
    summary: "Another user's public crates",
    tags,
    params: z.object({ userUuid: z.uuid() }),
    query: PageQuerySchema,
    response: z.object({ crates: z.array(CrateSchema), count: z.number().int() }),
    handler: async ({ params, query }) => {
      const { crates, total } = await playlists.listUserCrates({ userUuid: params.userUuid, ...page(query) });
      return { crates: crates.map(crateJson), count: total };
    },
  });

  route(deps, {
    method: 'post',
    path: `${BASE}/api/v1/playlists/{crateUuid}/tracks`,
    summary: 'Add a catalogue song by its numeric id',
    tags,
    status: 201,
    params: z.object({ crateUuid: z.uuid() }),
    errors: [403, 404],
    body: z.object({ songId: SerialId, append: z.boolean().default(true) }),
    response: z.object({ songs: z.array(CrateSongSchema), count: z.number().int() }),
    handler: async ({ params, body }) => {
      const { crate, added } = await playlists.addCrateSongs({
        crate: CrateRef.fromPartial({ crateUuid: params.crateUuid }),
        songs: [{ ...toSongToAdd({ songId: '' }), catalogueId: body.songId }],
        append: body.append,
      });
      return { songs: added.map(crateSongJson), count: crate?.crateSongsNumber ?? added.length };
    },
  });

  for (const target of CRATE_PATHS) {
    const path = `${BASE}${target.path}`;
    const params = target.params;
    const ref = (p: unknown) => target.ref((p ?? {}) as Record<string, string>);

    route(deps, {
      method: 'get',
      path,
      summary: `Read ${target.label}, with its first songs`,
      tags,
      params,
      errors: [404],
      response: CrateSchema.extend({ songs: z.array(CrateSongSchema) }),
      handler: async ({ params: p }) => {
        const { crate, songs } = await playlists.listCrateSongs({ crate: ref(p), limit: 100, offset: 0 });
        return { ...crateJson(crate), songs: songs.map(crateSongJson) };
      },
    });

    route(deps, {
      method: 'get',
      path: `${path}/songs`,
      summary: `Songs of ${target.label}, in order`,
      tags,
      params,
      query: PageQuerySchema,
      errors: [404],
      response: z.object({ songs: z.array(CrateSongSchema), count: z.number().int() }),
      handler: async ({ params: p, query }) => {
        const { crate, songs } = await playlists.listCrateSongs({ crate: ref(p), ...page(query) });
        return { songs: songs.map(crateSongJson), count: crate?.crateSongsNumber ?? songs.length };
      },
    });

    route(deps, {
      method: 'post',
      path: `${path}/songs`,
      summary: `Add songs to ${target.label} (at the end, or the top with append: false)`,
      tags,
      status: 201,
      params,
      body: AddSongsSchema,
      errors: [403, 404],
      response: z.object({ songs: z.array(CrateSongSchema), count: z.number().int() }),
      handler: async ({ params: p, body }) => {
        const { crate, added } = await playlists.addCrateSongs({ crate: ref(p), songs: body.songs.map(toSongToAdd), append: body.append });
        return { songs: added.map(crateSongJson), count: crate?.crateSongsNumber ?? added.length };
      },
    });

    route(deps, {
      method: 'delete',
      path: `${path}/songs/{crateSongUuid}`,
      summary: `Remove a song from ${target.label}`,
      tags,
      params: (params ?? z.object({})).extend({ crateSongUuid: z.uuid() }),
      errors: [403, 404],
      response: CrateSchema,
      handler: async ({ params: p }) =>
        crateJson((await playlists.removeCrateSong({ crate: ref(p), crateSongUuid: p.crateSongUuid })).crate),
    });

    route(deps, {
      method: 'put',
      path: `${path}/songs/{crateSongUuid}/position`,
      summary: `Move a song of ${target.label}`,
      tags,
      params: (params ?? z.object({})).extend({ crateSongUuid: z.uuid() }),
      body: z.object({ position: Position }),
      errors: [403, 404],
      response: z.object({ songs: z.array(CrateSongSchema) }),
      handler: async ({ params: p, body }) => ({
        songs: (await playlists.moveCrateSong({ crate: ref(p), crateSongUuid: p.crateSongUuid, position: body.position })).songs.map(
          crateSongJson,
        ),
      }),
    });

    route(deps, {
      method: 'post',
      path: `${path}/songs/shuffle`,
      summary: `Shuffle ${target.label}`,
      tags,
      params,
      errors: [403, 404],
      response: z.object({ songs: z.array(CrateSongSchema) }),
      handler: async ({ params: p }) => ({ songs: (await playlists.shuffleCrate({ crate: ref(p) })).songs.map(crateSongJson) }),
    });

    route(deps, {
      method: 'post',
      path: `${path}/songs/clear`,
      summary: `Empty ${target.label}`,
      tags,
      params,
      errors: [403, 404],
      response: CrateSchema,
      handler: async ({ params: p }) => crateJson((await playlists.clearCrate({ crate: ref(p) })).crate),
    });

    route(deps, {
      method: 'put',
      path: `${path}/current-position`,
      summary: `Set the playing position in ${target.label}`,
      tags,
      params,
      body: z.object({ currentPosition: Position }),
      errors: [403, 404],
      response: CrateSchema,
      handler: async ({ params: p, body }) =>
        crateJson((await playlists.setCurrentPosition({ crate: ref(p), currentPosition: body.currentPosition })).crate),
    });

    if (!params) continue; // the queue and likes cannot be renamed, shared, deleted or copied
    route(deps, {
      method: 'patch',
      path,
      summary: 'Rename, describe or share a crate',
      tags,
      params,
      body: UpdateCrateSchema,
      errors: [403, 404],
      response: CrateSchema,
      handler: async ({ params: p, body }) => crateJson((await playlists.updateCrate({ crate: ref(p), ...body })).crate),
    });
    route(deps, {
      method: 'delete',
      path,
      summary: 'Delete a crate',
      tags,
      params,
      errors: [403, 404],
      response: z.object({ crateUuid: z.string() }),
      handler: async ({ params: p }) => {
        await playlists.deleteCrate({ crate: ref(p) });
        return { crateUuid: (p as { crateUuid: string }).crateUuid };
      },
    });
    route(deps, {
      method: 'put',
      path: `${path}/copy`,
      summary:
        "Copy a crate the caller may read (theirs, or anyone's public one) into a new crate of theirs '<name> (copy)', or with ?into= onto the end of their queue, likes or own crate, leaving out songs it already holds (spec 002's sameness rule)",
      tags,
      status: 201,
      params,
      query: CopyQuery,
      errors: [403, 404],
      response: CrateSchema.extend({
        songsAdded: z.number().int().openapi({ description: 'Songs the copy added (those the target already held are left out)' }),
      }),
      handler: async ({ params: p, query }) => {
        const into = query.into === undefined ? undefined : intoRef(query.into);
        const { crate, songsAdded } = await playlists.copyCrate({ crate: ref(p), ...(into ? { into } : {}) });
        return { ...crateJson(crate), songsAdded };
      },
    });
  }
}
