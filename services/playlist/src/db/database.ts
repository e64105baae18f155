import type { ServiceDatabase } from '@spinroom/platform';
import { CrateEntity, SongEntity } from './entities.js';
import { migrations } from './migrations/index.js';

/** The playlist service's tables; the service kit opens and migrates them. */
export const playlistDatabase: ServiceDatabase = { entities: [SongEntity, CrateEntity], migrations };
