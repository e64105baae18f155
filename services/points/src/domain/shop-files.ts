import { randomUUID } from 'node:crypto';
import {
  badRequest,
  checkImageContentType,
  forbidden,
  imageTooLarge,
  isAdminRole,
  isUuid,
  notFound,
  STORED_IMAGE_CONTENT_TYPE,
} from '@spinroom/platform';
import { CONSUMABLE_NOT_FOUND } from './consumables.js';
import { TOKEN_BUNDLE_NOT_FOUND, type TokenBundle } from './token-bundles.js';
import type { Actor } from './tokens.js';

export const SHOP_FILE_NOT_FOUND = 'File not found';
/** Largest picture accepted (before it is resized); the BFF refuses bigger bodies while they stream. */
export const SHOP_FILE_MAX_BYTES = 5 * 1024 * 1024;

export type ShopFilePurpose = 'consumable' | 'thumbnail';

/**
 * How each kind is kept: a consumable's picture fits in 1024 pixels (a `cover`
 * consumable fills the chat's width, a `small` one is scaled down by the
 * client); a bundle's thumbnail is a square cropped to fill.
 */
export const SHOP_FILE_SIZES: Record<ShopFilePurpose, { width: number; height: number; fit: 'cover' | 'inside' }> = {
  consumable: { width: 1024, height: 1024, fit: 'inside' },
  thumbnail: { width: 512, height: 512, fit: 'cover' },
};

export interface ShopFile {
  id: string;
  purpose: ShopFilePurpose;
  width: number;
  height: number;
  contentType: string;
  sizeBytes: number;
  createdBy: string;
  createdAt: Date;
}

/** Where a file is served (GET /api/v1/consumables/files/{fileId}; spec 000). */
export function shopFileUrl(id: string): string {
  return `/api/merch-service/api/v1/consumables/files/${id}`;
}

export interface ShopFileUpload {
  consumableId?: string;
  tokenBundleId?: string;
  contentType: string;
  content: Buffer;
}

/** Decodes a picture (refusing what is not one) and re-encodes it as WebP at the size (SharpResizer). */
export interface ShopImageResizer {
  resize(
    content: Buffer,
    size: { width: number; height: number },
    fit: 'cover' | 'inside',
  ): Promise<{ content: Buffer; width: number; height: number }>;
}

/** The files and what names them, in PostgreSQL (db/shop-file-store.ts). */
export interface ShopFileStore {
  /**
   * Stores the file and, in the same transaction, makes it the consumable's
   * picture or the bundle's thumbnail when one is named; false (and nothing
   * stored) when the named one does not exist or is deleted.
   */
  insert(
    file: ShopFile,
    content: Buffer,
    owner?: { consumableId: string } | { tokenBundleId: string; thumbnailUrl: string },
  ): Promise<{ stored: boolean; bundle?: TokenBundle }>;
  find(id: string): Promise<{ file: ShopFile; content: Buffer } | undefined>;
}

/**
 * The shop's pictures (spec 000: consumable files and token bundle
 * thumbnails, multipart): admins upload them, anyone reads them by id. What
 * is kept is always a resized WebP without metadata, whatever was sent.
 */
export class ShopFiles {
  private readonly now: () => Date;

  constructor(
    private readonly store: ShopFileStore,
    private readonly resizer: ShopImageResizer,
    now?: () => Date,
  ) {
    this.now = now ?? (() => new Date());
  }

  /** A consumable's picture; with `consumableId` it becomes that consumable's. */
  async uploadConsumableFile(actor: Actor, upload: ShopFileUpload): Promise<ShopFile> {
    if (!isAdminRole(actor.role)) throw forbidden('Only admins may upload consumable files');
    if (upload.consumableId !== undefined && !isUuid(upload.consumableId)) throw badRequest('consumableId must be a UUID');
    const file = await this.prepare(actor, 'consumable', upload);
    const { stored } = await this.store.insert(
      file.file,
      file.content,
      upload.consumableId ? { consumableId: upload.consumableId } : undefined,
    );
    if (!stored) throw notFound(CONSUMABLE_NOT_FOUND);
    return file.file;
  }

  /** A token bundle's thumbnail: its `thumbnailUrl` names the new picture. */
  async setTokenBundleThumbnail(actor: Actor, upload: ShopFileUpload): Promise<{ bundle: TokenBundle; file: ShopFile }> {
    if (!isAdminRole(actor.role)) throw forbidden('Only admins may change token bundles');
    if (!upload.tokenBundleId || !isUuid(upload.tokenBundleId)) throw badRequest('The token bundle id must be a UUID');
    const file = await this.prepare(actor, 'thumbnail', upload);
    const { stored, bundle } = await this.store.insert(file.file, file.content, {
      tokenBundleId: upload.tokenBundleId,
      thumbnailUrl: shopFileUrl(file.file.id),
    });
    if (!stored || !bundle) throw notFound(TOKEN_BUNDLE_NOT_FOUND);
    return { bundle, file: file.file };
  }

  async get(id: string): Promise<{ file: ShopFile; content: Buffer }> {
    const found = isUuid(id) ? await this.store.find(id) : undefined;
    if (!found) throw notFound(SHOP_FILE_NOT_FOUND);
    return found;
  }

  private async prepare(actor: Actor, purpose: ShopFilePurpose, upload: ShopFileUpload): Promise<{ file: ShopFile; content: Buffer }> {
    checkImageContentType(upload.contentType);
    if (upload.content.length === 0) throw badRequest('The image is empty');
    if (upload.content.length > SHOP_FILE_MAX_BYTES) throw imageTooLarge(SHOP_FILE_MAX_BYTES);
    const { width, height, fit } = SHOP_FILE_SIZES[purpose];
    const resized = await this.resizer.resize(upload.content, { width, height }, fit);
    return {
      file: {
        id: randomUUID(),
        purpose,
        width: resized.width,
        height: resized.height,
        contentType: STORED_IMAGE_CONTENT_TYPE,
        sizeBytes: resized.content.length,
        createdBy: actor.userUuid,
        createdAt: this.now(),
      },
      content: resized.content,
    };
  }
}
