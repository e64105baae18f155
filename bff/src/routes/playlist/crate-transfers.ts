import { CrateRef } from '@spinroom/contracts/playlist/v1/playlist_service';
import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route.js';
import type { PlaylistClient } from './crates.js';
import { CrateSchema, CrateSongSchema } from './schemas.js';
import { crateJson, songJson } from './views.js';

const BASE = '/api/playlist-service';
/** A provider's bearer credential: it travels in an HTTP header, so printable ASCII only. */
const Credential = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[\x21-\x7E]+$/, 'must be a token of printable ASCII characters');
const Country = z
  .string()
  .regex(/^[A-Za-z]{2}$/, 'country must be a two-letter country code')
  .optional();
const ExportAnswerSchema = z
  .object({ playlistId: z.string(), url: z.string(), added: z.number().int(), missing: z.array(CrateSongSchema) })
  .openapi('CrateExport');

/** Crates in and out of the providers: importing a playlist (in the background) and exporting a crate to the user's account. */
export function crateTransferRoutes(deps: RouteDeps, playlists: PlaylistClient): void {
  const tags = ['crates'];
  route(deps, {
    method: 'post',
    path: `${BASE}/crate/import`,
    summary:
      'Import a Spotify or Apple Music playlist into a new crate; answers the crate IN_PROGRESS (poll GET /crate/{crateUuid} until COMPLETE or FAILED)',
    tags,
    status: 201,
    errors: [400, 503],
    body: z
      .object({
        musicProvider: z.enum(['spotify', 'apple']),
        playlistId: z.string().min(1).max(255),
        crateName: z.string().max(100).optional(),
        country: Country,
      })
      .openapi('CrateImport'),
    response: CrateSchema,
    handler: async ({ body }) =>
      crateJson(
        (
          await playlists.importCrate({
            musicProvider: body.musicProvider,
            playlistId: body.playlistId,
            crateName: body.crateName ?? '',
            country: body.country ?? '',
          })
        ).crate,
      ),
  });

  const exportAnswer = (a: Awaited<ReturnType<PlaylistClient['exportCrate']>>) => ({
    playlistId: a.playlistId,
    url: a.url,
    added: a.added,
    missing: a.missing.map(songJson),
  });
  route(deps, {
    method: 'post',
    path: `${BASE}/exports/spotify`,
    summary:
      "Create a playlist in the caller's Spotify account from a crate (the caller's Spotify access token, scope playlist-modify-private)",
    tags,
    status: 201,
    errors: [401, 403, 404, 502],
    body: z
      .object({ crateUuid: z.uuid(), accessToken: Credential(2048), playlistName: z.string().max(100).optional(), country: Country })
      .openapi('SpotifyExport'),
    response: ExportAnswerSchema,
    handler: async ({ body }) =>
      exportAnswer(
        await playlists.exportCrate({
          crate: CrateRef.fromPartial({ crateUuid: body.crateUuid }),
          musicProvider: 'spotify',
          userToken: body.accessToken,
          playlistName: body.playlistName ?? '',
          country: body.country ?? '',
        }),
      ),
  });
  route(deps, {
    method: 'post',
    path: `${BASE}/exports/apple`,
    summary: "Create a playlist in the caller's Apple Music library from a crate (the caller's Music User Token)",
    tags,
    status: 201,
    errors: [401, 403, 404, 502, 503],
    body: z
      .object({ crateUuid: z.uuid(), musicUserToken: Credential(4096), playlistName: z.string().max(100).optional(), country: Country })
      .openapi('AppleExport'),
    response: ExportAnswerSchema,
    handler: async ({ body }) =>
      exportAnswer(
        await playlists.exportCrate({
          crate: CrateRef.fromPartial({ crateUuid: body.crateUuid }),
          musicProvider: 'apple',
          userToken: body.musicUserToken,
          playlistName: body.playlistName ?? '',
          country: body.country ?? '',
        }),
      ),
  });
}
