// Apart from core: only the services that decode pictures load sharp (libvips).
import sharp from 'sharp';
import { badRequest } from '../errors.js';

/** Formats decoded from uploads; libvips would read more (SVG, TIFF...), refused. */
const DECODED_FORMATS = ['jpeg', 'png', 'webp', 'gif'];
/** Bigger pictures are refused before they are decoded (a small file can claim a huge canvas). */
const MAX_INPUT_PIXELS = 40_000_000;

export interface ResizedImage {
  content: Buffer;
  width: number;
  height: number;
}

/**
 * Resizes with sharp (libvips): the EXIF orientation applied, then cropped to
 * fill the size (`cover`) or fitted inside it (`inside`, never enlarged), and
 * re-encoded as WebP without metadata. What is not a JPEG, PNG, WebP or GIF
 * picture is refused (400).
 */
export class SharpResizer {
  async resize(content: Buffer, size: { width: number; height: number }, fit: 'cover' | 'inside' = 'cover'): Promise<ResizedImage> {
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
        .resize(size.width, size.height, { fit, withoutEnlargement: fit === 'inside' })
        .webp({ quality: 82 })
        .toBuffer({ resolveWithObject: true });
      return { content: data, width: info.width, height: info.height };
    } catch {
      throw unreadable();
    }
  }
}

export * from './uploads.js';
