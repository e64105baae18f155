import { AppError, badRequest } from '../errors.js';

/** Types a client may declare for a picture; the bytes are checked again when decoded. */
export const IMAGE_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
/** What every stored picture is, whatever was sent: small, and no metadata (EXIF, GPS) carried along. */
export const STORED_IMAGE_CONTENT_TYPE = 'image/webp';

export function imageTooLarge(maxBytes: number): AppError {
  const mb = Number((maxBytes / (1024 * 1024)).toFixed(2));
  return new AppError(413, `The image is larger than the ${mb} MB limit`);
}

/** A picture's declared type, before its bytes are decoded: 415 for anything else. */
export function checkImageContentType(contentType: string): void {
  if (!(IMAGE_CONTENT_TYPES as readonly string[]).includes(contentType.toLowerCase())) {
    throw new AppError(415, `Only ${IMAGE_CONTENT_TYPES.join(', ')} images are accepted`);
  }
}

/** One part of an upload's client stream, as every upload RPC's `oneof part` has it (the BFF's streamMultipart sends them). */
export type UploadPart<F> =
  | { $case: 'fields'; value: F }
  | { $case: 'file'; value: { fileName: string; contentType: string } }
  | { $case: 'chunk'; value: Uint8Array }
  | { $case: 'end'; value: { sizeBytes: number } };

export interface BufferedUpload<F> {
  /** The form fields, merged in the order they came. */
  fields: Partial<F>;
  fileName: string;
  contentType: string;
  content: Buffer;
}

/**
 * Reads a small upload (a picture) from its client stream into memory: the
 * fields, the file's name and type, then its bytes, at most `maxBytes` (413
 * past them), and the end, whose size must match what arrived (an interrupted
 * upload is refused, never stored).
 */
export async function readBufferedUpload<F extends object>(
  messages: AsyncIterable<{ part?: UploadPart<F> | undefined }>,
  maxBytes: number,
): Promise<BufferedUpload<F>> {
  let fields: Partial<F> = {};
  let file: { fileName: string; contentType: string } | undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  let declared: number | undefined;
  for await (const { part } of messages) {
    if (!part) continue;
    if (part.$case === 'fields') fields = { ...fields, ...withoutUndefined(part.value) };
    else if (part.$case === 'file') file = part.value;
    else if (part.$case === 'chunk') {
      if (!file) throw badRequest('The file must be announced before its bytes');
      size += part.value.length;
      if (size > maxBytes) throw imageTooLarge(maxBytes);
      chunks.push(Buffer.from(part.value));
    } else if (part.$case === 'end') {
      declared = part.value.sizeBytes;
      break;
    }
  }
  if (!file) throw badRequest('A file is required in the form field "file"');
  if (declared !== size) throw badRequest('The upload was interrupted');
  return { fields, fileName: file.fileName, contentType: file.contentType, content: Buffer.concat(chunks) };
}

function withoutUndefined<F extends object>(value: F): Partial<F> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<F>;
}
