import type { UploadSongRequest, UploadSongResponse } from '@spinroom/contracts/upload/v1/upload_service';
import type { ClientStream } from '@spinroom/platform/core';
import type { Request } from 'express';
import { streamMultipart } from '../../http/multipart.js';

const FORM_FIELDS = ['trackName', 'artistName', 'genre', 'isrc'] as const;

/** A song upload (`file`, optional `trackName`, `artistName`, `genre`, `isrc`), streamed into UploadSong. */
export function streamUpload(
  req: Request,
  open: () => ClientStream<UploadSongRequest, UploadSongResponse>,
  maxBytes: number,
): Promise<UploadSongResponse> {
  return streamMultipart(req, open, { maxBytes, fields: FORM_FIELDS, noun: 'audio', message: (part) => ({ part }) });
}
