import { randomUUID } from 'node:crypto';
import {
  ERROR_CODES,
  badRequest,
  checkImageContentType,
  forbidden,
  imageTooLarge,
  isAdminRole,
  isUuid,
  notFound,
  STORED_IMAGE_CONTENT_TYPE,
  type Caller,
} from '@spinroom/platform';
import { PROFILE_NOT_FOUND } from '../accounts.js';
import type { User } from '../user.js';

export const IMAGE_KINDS = ['profilePicture', 'coverPicture'] as const;
export type ImageKind = (typeof IMAGE_KINDS)[number];

/** The stored size of each kind: a square avatar-sized picture; a wide banner. */
export const IMAGE_SIZES: Record<ImageKind, { width: number; height: number }> = {
  profilePicture: { width: 512, height: 512 },
  coverPicture: { width: 1500, height: 500 },
};
export const IMAGE_NOT_FOUND = 'Image not found';
export const UNAUTHORIZED_TO_DELETE = 'Unauthorized to delete';

export interface ProfileImage {
  id: string;
  userUuid: string;
  kind: ImageKind;
  width: number;
  height: number;
  contentType: string;
  createdAt: Date;
}

export interface ImageStore {
  insert(image: ProfileImage): Promise<void>;
  find(id: string): Promise<ProfileImage | null>;
  delete(id: string): Promise<void>;
}

/** The bytes, by image id. */
export interface ImageFiles {
  put(id: string, content: Buffer): Promise<void>;
  get(id: string): Promise<Buffer | null>;
  delete(id: string): Promise<void>;
}

/** Decodes an image (refusing what is not one) and re-encodes it at the given size. */
export interface ImageResizer {
  resize(content: Buffer, size: { width: number; height: number }): Promise<{ content: Buffer; width: number; height: number }>;
}

/** The profile field an image sets: the cover picture's link is the profile's `coverPicture`. */
export interface ImageOwners {
  findByUuid(uuid: string): Promise<User | null>;
  /** Sets `coverPicture` alone (no other field is written back), only while it is still `ifCurrent` when that is given. */
  setCoverPicture(uuid: string, url: string | null, ifCurrent?: string): Promise<void>;
}

export interface UploadedImage {
  kind: string | undefined;
  fileName: string;
  contentType: string;
  content: Buffer;
}

export function imagePath(id: string): string {
  return `/api/user-service/users/images/${id}`;
}

export function checkImageKind(kind: string | undefined): ImageKind {
  if (!(IMAGE_KINDS as readonly string[]).includes(kind ?? '')) throw badRequest(`kind must be one of ${IMAGE_KINDS.join(', ')}`);
  return kind as ImageKind;
}

export function checkImageUpload(upload: Pick<UploadedImage, 'contentType' | 'content'>, maxBytes: number): void {
  checkImageContentType(upload.contentType);
  if (upload.content.length === 0) throw badRequest('The image is empty');
  if (upload.content.length > maxBytes) throw imageTooLarge(maxBytes);
}

/** Profile and cover pictures (spec 000, "Images"): checked, resized, kept by id. */
export class ProfileImages {
  constructor(
    private readonly images: ImageStore,
    private readonly files: ImageFiles,
    private readonly resizer: ImageResizer,
    private readonly owners: ImageOwners,
    private readonly maxBytes: number,
  ) {}

  async upload(caller: Caller, upload: UploadedImage): Promise<ProfileImage> {
    if (caller.kind !== 'user' && caller.kind !== 'bot') throw forbidden('Guests cannot upload images');
    const kind = checkImageKind(upload.kind);
    checkImageUpload(upload, this.maxBytes);
    const owner = await this.owners.findByUuid(caller.userUuid);
    if (!owner) throw notFound(PROFILE_NOT_FOUND, ERROR_CODES.userProfileNotFound);
    const resized = await this.resizer.resize(upload.content, IMAGE_SIZES[kind]);
    const image: ProfileImage = {
      id: randomUUID(),
      userUuid: caller.userUuid,
      kind,
      width: resized.width,
      height: resized.height,
      contentType: STORED_IMAGE_CONTENT_TYPE,
      createdAt: new Date(),
    };
    // The file first: a row never points at bytes that are not there.
    await this.files.put(image.id, resized.content);
    await this.images.insert(image);
    if (kind === 'coverPicture') await this.owners.setCoverPicture(owner.uuid, imagePath(image.id));
    return image;
  }

  async get(id: string): Promise<{ image: ProfileImage; content: Buffer }> {
    const image = isUuid(id) ? await this.images.find(id) : null;
    const content = image ? await this.files.get(image.id) : null;
    if (!image || !content) throw notFound(IMAGE_NOT_FOUND);
    return { image, content };
  }

  async delete(caller: Caller, id: string): Promise<void> {
    const image = isUuid(id) ? await this.images.find(id) : null;
    if (!image) throw notFound(IMAGE_NOT_FOUND);
    if (image.userUuid !== caller.userUuid && !isAdminRole(caller.role)) throw forbidden(UNAUTHORIZED_TO_DELETE);
    await this.images.delete(image.id);
    await this.files.delete(image.id);
    await this.owners.setCoverPicture(image.userUuid, null, imagePath(image.id));
  }
}
