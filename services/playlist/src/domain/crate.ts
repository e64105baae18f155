import { badRequest, forbidden, notFound } from '@spinroom/platform';

export type SpecialCrateKind = 'queue' | 'likes';
export type ImportStatus = 'IN_PROGRESS' | 'FAILED' | 'COMPLETE';

export interface Crate {
  id: number;
  crateUuid: string;
  crateShortId: string;
  crateName: string;
  description: string;
  userUuid: string;
  isPublic: boolean;
  special: SpecialCrateKind | null;
  songCount: number;
  currentPosition: number;
  importStatus: ImportStatus;
  createdAt: Date;
  updatedAt: Date;
}

export const SPECIAL_CRATE_NAMES: Record<SpecialCrateKind, string> = { queue: 'Queue', likes: 'Likes' };
export const CRATE_NAME_MAX_LENGTH = 100;
export const CRATE_SONGS_MAX = 5_000;
export const CRATE_NOT_FOUND = 'Crate not found';

/** 'New Playlist #' plus the lowest free positive number among the user's crate names. */
export function newPlaylistName(existingNames: Iterable<string>): string {
  const taken = new Set<number>();
  for (const name of existingNames) {
    const match = name.match(/^New Playlist #(\d+)$/);
    if (match) taken.add(Number(match[1]));
  }
  let n = 1;
  while (taken.has(n)) n += 1;
  return `New Playlist #${n}`;
}

export function checkCrateName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > CRATE_NAME_MAX_LENGTH) {
    throw badRequest(`crateName must be between 1 and ${CRATE_NAME_MAX_LENGTH} characters`);
  }
  return trimmed;
}

/** Anyone may read a public crate; private ones only their owner. Unknown and hidden look alike. */
export function assertReadable(crate: Crate | null, callerUuid: string): Crate {
  if (!crate || (!crate.isPublic && crate.userUuid !== callerUuid)) throw notFound(CRATE_NOT_FOUND);
  return crate;
}

export function assertEditable(crate: Crate | null, callerUuid: string): Crate {
  const readable = assertReadable(crate, callerUuid);
  if (readable.userUuid !== callerUuid) throw forbidden('Only the owner can change this crate');
  return readable;
}

/** The queue and likes crates are always there: they can be emptied but not deleted, renamed or shared. */
export function assertNotSpecial(crate: Crate, what: string): void {
  if (crate.special) throw forbidden(`The ${SPECIAL_CRATE_NAMES[crate.special].toLowerCase()} crate cannot be ${what}`);
}
