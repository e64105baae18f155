import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError, badRequest, unauthorized, type Logger } from '@spinroom/platform';
import type { PgAnalysisStore } from '../db/analysis-store.js';
import type { CyaniteClient } from '../providers/cyanite.js';

export const INVALID_SIGNATURE = 'The webhook signature is invalid';

/** Cyanite signs the exact body: hex HMAC-SHA512 with the integration's webhook secret (header `Signature`). */
export function validAnalysisSignature(secret: string, body: Buffer, signature: string): boolean {
  const expected = createHmac('sha512', secret).update(body).digest();
  const given = /^[0-9a-f]{128}$/i.test(signature.trim()) ? Buffer.from(signature.trim(), 'hex') : null;
  return !!given && timingSafeEqual(given, expected);
}

/** The webhook body (Cyanite's "new" format; a `{type: "TEST"}` ping is accepted too). */
export interface AnalysisEvent {
  type?: string;
  version?: string;
  resource?: { type?: string; id?: string };
  event?: { type?: string; status?: string };
}

/**
 * The music-analysis webhook: authenticated by its signature, then the
 * finished AudioAnalysisV6 of a library track is fetched and kept for the song
 * named by the track's externalId (genre, mood and bpm tags; the song's genre
 * when it has none). A repeat of a recorded outcome changes nothing.
 */
export class AnalysisWebhook {
  constructor(
    private readonly cyanite: CyaniteClient,
    private readonly store: PgAnalysisStore,
    private readonly logger: Logger,
  ) {}

  async record(body: Buffer, signature: string): Promise<{ changed: boolean }> {
    const secret = this.cyanite.webhookSecret;
    if (!secret) throw new AppError(503, 'Cyanite is not configured on this server');
    if (!validAnalysisSignature(secret, body, signature)) throw unauthorized(INVALID_SIGNATURE);
    let event: AnalysisEvent;
    try {
      event = JSON.parse(body.toString('utf8')) as AnalysisEvent;
    } catch {
      throw badRequest('The webhook body must be JSON');
    }
    const libraryTrackId = event.resource?.id;
    if (event.type === 'TEST' || event.resource?.type !== 'LibraryTrack' || event.event?.type !== 'AudioAnalysisV6' || !libraryTrackId) {
      return { changed: false };
    }
    const status = event.event.status === 'finished' ? 'FINISHED' : event.event.status === 'failed' ? 'FAILED' : null;
    if (!status) return { changed: false };
    if ((await this.store.status(libraryTrackId)) === status) return { changed: false };
    const analysis = await this.cyanite.libraryTrack(libraryTrackId);
    if (!analysis.externalId) {
      this.logger.info({ libraryTrackId }, 'Analysis of a library track that names no song, ignored');
      return { changed: false };
    }
    if (status === 'FINISHED' && analysis.status !== 'finished') return { changed: false }; // not readable yet; Cyanite keeps the result
    return { changed: await this.store.record(libraryTrackId, analysis.externalId, status === 'FINISHED' ? analysis : null) };
  }
}
