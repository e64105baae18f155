import type { RouteDeps } from '../../http/route.js';
import type { UploadClient } from './clients.js';
import { hlsRoutes } from './hls.js';
import { songsRoutes } from './songs.js';
import { uploadRoutes } from './upload.js';

export { uploadBodyParsers } from './upload.js';
export type { UploadClient } from './clients.js';

/** Every /api/upload-service path. */
export function uploadServiceRoutes(deps: RouteDeps, uploads: UploadClient, options: { maxBytes: number }): void {
  uploadRoutes(deps, uploads, options);
  hlsRoutes(deps, uploads);
  songsRoutes(deps, uploads);
}
