import type { ShopFile } from '@spinroom/contracts/points/v1/shop_files';
import { z } from 'zod';
import { streamMultipart } from '../../http/multipart.js';
import { RawReply, route, type RouteDeps } from '../../http/route.js';
import { present } from '../../http/upstream.js';
import type { ShopFileClient } from './clients.js';
import { TokenBundleSchema } from './shop-schemas.js';
import { tokenBundleJson } from './shop-views.js';

const BASE = '/api/merch-service/api/v1';
const tags = ['token shop'];
/** The BFF's bound on a picture while streaming; the points service applies its own (SHOP_FILE_MAX_BYTES, the same). */
const SHOP_FILE_UPLOAD_MAX_BYTES = 5 * 1024 * 1024;

const FileField = z.string().openapi({ type: 'string', format: 'binary', description: 'A JPEG, PNG, WebP or GIF picture, 5 MB at most' });

const ShopFileSchema = z
  .object({
    id: z.uuid(),
    purpose: z.enum(['consumable', 'thumbnail']),
    width: z.number().int(),
    height: z.number().int(),
    contentType: z.string(),
    sizeBytes: z.number().int(),
    url: z.string().openapi({ description: 'Where it is served (GET /api/merch-service/api/v1/consumables/files/{fileId})' }),
    createdAt: z.string(),
  })
  .openapi('ShopFile');

function shopFileJson(file: ShopFile | undefined): z.input<typeof ShopFileSchema> {
  const f = present(file);
  return { ...f, purpose: f.purpose as 'consumable' | 'thumbnail', createdAt: present(f.createdAt).toISOString() };
}

/** The shop's pictures (spec 000: consumable files and token bundle thumbnails, multipart). */
export function shopFileRoutes(deps: RouteDeps, files: ShopFileClient): void {
  route(deps, {
    method: 'post',
    path: `${BASE}/consumables/files`,
    summary:
      "Uploads a consumable's picture (admins; multipart/form-data: file, and consumableId to make it that consumable's picture); kept as WebP, at most 1024 pixels a side",
    tags,
    status: 201,
    rawBody: {
      contentType: 'multipart/form-data',
      schema: z.object({ consumableId: z.uuid().optional(), file: FileField }).openapi('ConsumableFileForm'),
    },
    response: ShopFileSchema,
    errors: [403, 404, 413, 415],
    handler: async ({ req }) => {
      const { file } = await streamMultipart(req, () => files.uploadConsumableFile(), {
        maxBytes: SHOP_FILE_UPLOAD_MAX_BYTES,
        fields: ['consumableId'],
        noun: 'image',
        message: (part) => ({ part }),
      });
      return shopFileJson(file);
    },
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/consumables/files/{fileId}`,
    // Public: the shop and the chat show pictures with <img>, which sends no bearer token; ids are random uuids.
    summary: "A consumable's picture or a token bundle's thumbnail (WebP)",
    tags,
    auth: 'public',
    params: z.object({ fileId: z.uuid() }),
    produces: 'image/webp',
    response: z.string().openapi({ type: 'string', format: 'binary' }),
    errors: [404],
    handler: async ({ params }) => {
      const { file, content } = await files.getShopFile({ fileId: params.fileId });
      return new RawReply(content, {
        'content-type': present(file).contentType,
        // A file never changes under its id.
        'cache-control': 'public, max-age=31536000, immutable',
        'x-content-type-options': 'nosniff',
      });
    },
  });

  route(deps, {
    method: 'patch',
    path: `${BASE}/token-bundles/{id}/thumbnail`,
    summary:
      "Sets a token bundle's thumbnail (admins; multipart/form-data: file); kept as a 512 by 512 WebP, named by the bundle's thumbnailUrl",
    tags,
    params: z.object({ id: z.uuid() }),
    rawBody: { contentType: 'multipart/form-data', schema: z.object({ file: FileField }).openapi('TokenBundleThumbnailForm') },
    response: TokenBundleSchema,
    errors: [403, 404, 413, 415],
    handler: async ({ req, params }) => {
      const { bundle } = await streamMultipart(req, () => files.setTokenBundleThumbnail(), {
        maxBytes: SHOP_FILE_UPLOAD_MAX_BYTES,
        fields: [] as Array<'tokenBundleId'>,
        initialFields: { tokenBundleId: params.id },
        noun: 'image',
        message: (part) => ({ part }),
      });
      return tokenBundleJson(bundle);
    },
  });
}
