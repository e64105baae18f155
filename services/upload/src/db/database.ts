import type { ServiceDatabase } from '@spinroom/platform';
import { SongEntity, TranscodeJobEntity } from './entities.js';
import { migrations } from './migrations/index.js';

/** The upload service's tables; the service kit opens and migrates them. */
export const uploadDatabase: ServiceDatabase = { entities: [SongEntity, TranscodeJobEntity], migrations };
