// Multipart upload with progress (fetch has no upload progress; XHR does).
import { UPLOAD } from '../api/client';
import { ApiError, codeOf, userMessageFor } from '../api/errors';
import { session } from '../session/session';

export function uploadSong(
  form: { file: File; trackName?: string; artistName?: string },
  onProgress: (fraction: number) => void,
): Promise<{ songId: string; status: string }> {
  return new Promise((resolve, reject) => {
    const body = new FormData();
    if (form.trackName) body.append('trackName', form.trackName);
    if (form.artistName) body.append('artistName', form.artistName);
    body.append('file', form.file);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${UPLOAD}/upload/song`);
    const token = session.get().token;
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(xhr.responseText);
      } catch {
        parsed = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(parsed as { songId: string; status: string });
      else reject(new ApiError(xhr.status, userMessageFor(xhr.status, parsed), codeOf(parsed)));
    };
    xhr.onerror = () => reject(new ApiError(0, userMessageFor(0, undefined)));
    xhr.send(body);
  });
}

/** Statuses after which the song's verification is over (VERIFIED plays; the others say why not). */
export const FINAL_STATUSES = new Set(['VERIFIED', 'VERIFICATION_ERROR', 'UNVERIFIED', 'MISSING_METADATA']);
