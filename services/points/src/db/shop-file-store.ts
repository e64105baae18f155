import type { MikroORM } from '@mikro-orm/postgresql';
import type { ShopFile, ShopFilePurpose, ShopFileStore } from '../domain/shop-files.js';
import type { TokenBundle } from '../domain/token-bundles.js';
import { BUNDLE_COLUMNS, toBundle, type BundleRow } from './token-bundle-store.js';

interface FileRow {
  id: string;
  purpose: ShopFilePurpose;
  content_type: string;
  width: number;
  height: number;
  size_bytes: string;
  created_by: string;
  created_at: Date;
}

const COLUMNS = `"id", "purpose", "content_type", "width", "height", octet_length("content") as "size_bytes", "created_by", "created_at"`;

function toFile(row: FileRow): ShopFile {
  return {
    id: row.id,
    purpose: row.purpose,
    contentType: row.content_type,
    width: row.width,
    height: row.height,
    sizeBytes: Number(row.size_bytes),
    createdBy: row.created_by,
    createdAt: new Date(row.created_at),
  };
}

/** The shop's pictures with their bytes (`shop_file`), and the consumable or bundle that shows each. */
export class PgShopFileStore implements ShopFileStore {
  constructor(private readonly orm: MikroORM) {}

  async insert(
    file: ShopFile,
    content: Buffer,
    owner?: { consumableId: string } | { tokenBundleId: string; thumbnailUrl: string },
  ): Promise<{ stored: boolean; bundle?: TokenBundle }> {
    return this.orm.em
      .fork()
      .transactional(async (em) => {
        await em.execute(
          `insert into "shop_file" ("id", "purpose", "content_type", "width", "height", "content", "created_by", "created_at")
           values (?, ?, ?, ?, ?, ?, ?, ?)`,
          [file.id, file.purpose, file.contentType, file.width, file.height, content, file.createdBy, file.createdAt],
        );
        if (!owner) return { stored: true };
        // Rolled back (the file too) when the owner is gone: no picture is kept for nothing.
        const rollback = () => {
          throw new NoOwner();
        };
        if ('consumableId' in owner) {
          const rows = await em.execute<Array<{ id: string }>>(
            `update "consumable" set "file_id" = ?, "updated_at" = ? where "id" = ? and "deleted_at" is null returning "id"`,
            [file.id, file.createdAt, owner.consumableId],
          );
          if (rows.length === 0) rollback();
          return { stored: true };
        }
        const [row] = await em.execute<BundleRow[]>(
          `update "token_bundle" set "thumbnail_url" = ?, "updated_at" = ? where "id" = ? and "deleted_at" is null returning ${BUNDLE_COLUMNS}`,
          [owner.thumbnailUrl, file.createdAt, owner.tokenBundleId],
        );
        if (!row) rollback();
        return { stored: true, bundle: toBundle(row!) };
      })
      .catch((error: unknown) => {
        if (error instanceof NoOwner) return { stored: false };
        throw error;
      });
  }

  async find(id: string): Promise<{ file: ShopFile; content: Buffer } | undefined> {
    const [row] = await this.orm.em
      .fork()
      .execute<Array<FileRow & { content: Buffer }>>(`select ${COLUMNS}, "content" from "shop_file" where "id" = ?`, [id]);
    return row ? { file: toFile(row), content: row.content } : undefined;
  }
}

class NoOwner extends Error {}
