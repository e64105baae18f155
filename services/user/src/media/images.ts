import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { badRequest } from '@spinroom/platform';
import sharp from 'sharp';
import type { ImageFiles, ImageResizer } from '../domain/profiles/images.js';

/** Formats decoded from uploads (what IMAGE_CONTENT_TYPES names); libvips would read more (SVG, TIFF...), refused. */
const DECODED_FORMATS = ['jpeg', 'png', 'webp', 'gif'];
/** Bigger pictures are refused before they are decoded (a small file can claim a huge canvas). */
const MAX_INPUT_PIXELS = 40_000_000;

/** Resizes with sharp (libvips): the EXIF orientation applied, cropped to fill, re-encoded as WebP without metadata. */
export class SharpResizer implements ImageResizer {
  async resize(content: Buffer, size: { width: number; height: number }) {
    const unreadable = () => badRequest('The file is not a JPEG, PNG, WebP or GIF image');
    let format: string | undefined;
    try {
      format = (await sharp(content, { limitInputPixels: MAX_INPUT_PIXELS }).metadata()).format;
    } catch {
      throw unreadable();
    }
    if (!format || !DECODED_FORMATS.includes(format)) throw unreadable();
    try {
      const { data, info } = await sharp(content, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
        .rotate()
        .resize(size.width, size.height, { fit: 'cover', withoutEnlargement: false })
        .webp({ quality: 82 })
        .toBuffer({ resolveWithObject: true });
      return { content: data, width: info.width, height: info.height };
    } catch {
      throw unreadable();
    }
  }
}

/** Image bytes in a folder, one file per id; written to a temporary name, then renamed into place. */
export class FolderImageFiles implements ImageFiles {
  constructor(private readonly root: string) {}

  private path(id: string): string {
    if (!/^[0-9a-f-]{36}$/.test(id)) throw new Error(`invalid image id: ${id}`);
    return join(this.root, `${id}.webp`);
  }

  async put(id: string, content: Buffer): Promise<void> {
    const target = this.path(id);
    await mkdir(this.root, { recursive: true });
    const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(temp, content);
    await rename(temp, target);
  }

  async get(id: string): Promise<Buffer | null> {
    try {
      return await readFile(this.path(id));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(id: string): Promise<void> {
    await rm(this.path(id), { force: true });
  }
}
