import { createHash } from 'node:crypto';
import type { RoomRefusalName as AccessRefusal } from '@spinroom/contracts/vocabulary';
import { ERROR_CODES, forbidden, type AppError, type ErrorCode } from '@spinroom/platform';
import type { Room } from './room.js';
import { hasRole, highestRole, isGlobalRole, type RoomRole } from './room-roles.js';

/**
 * Room access: the one rule every surface asks (the feed join, the room's chat
 * group, its chat history and posting, its live state, its users and lists).
 *
 * A room has a door when it is PRIVATE or has a password. Behind the door are
 * those admitted (who passed it: entered with the password, or entered a
 * PRIVATE room by its link, see Admissions), holders of a room role (owner,
 * coOwner, moderator, dj) and the global roles. A room without a door is open
 * to everyone. Then:
 * - banned users neither enter nor read (the live state, who is there, the chat);
 * - kicked users do not enter (nor post) until the kick ends, but read what they may;
 * - the others enter and read when behind the door.
 */
// The refusals are listed once, as the proto enum RoomRefusal (room_vocabulary.proto).
export type { AccessRefusal };

export const ACCESS_MESSAGES: Record<AccessRefusal, string> = {
  banned: 'You are banned from this room',
  kicked: 'You were removed from this room, please try again later',
  passwordRequired: 'This room requires a password',
  private: 'This room is private',
};

/** Each refusal's code: clients tell "needs a password" from "kicked" by it (AppError.code), never by the text. */
export const ACCESS_CODES: Record<AccessRefusal, ErrorCode> = {
  banned: ERROR_CODES.roomBanned,
  kicked: ERROR_CODES.roomKicked,
  passwordRequired: ERROR_CODES.roomPasswordRequired,
  private: ERROR_CODES.roomPrivate,
};

/** The 403 for a refusal, with its message and code. */
export function accessRefused(refusal: AccessRefusal): AppError {
  return forbidden(ACCESS_MESSAGES[refusal], ACCESS_CODES[refusal]);
}

/** How long an admission lasts; entering again renews it. */
export const ADMISSION_TTL_MS = 24 * 60 * 60_000;

export interface AccessDecision {
  /** May see inside: the live state, who is there, the chat history. */
  mayRead: boolean;
  /** May be in the room: its live feed, its chat group, posting and reacting (chat-disabled aside). */
  mayEnter: boolean;
  /** Why not, the first reason (banned, kicked, then the door); null when the user may enter. */
  refusal: AccessRefusal | null;
  /** When the kick ends, when kicked. */
  kickedUntil: Date | null;
}

type DoorFields = Pick<Room, 'type' | 'passwordHash' | 'guestPasswordHash'>;

export function hasDoor(room: DoorFields): boolean {
  return room.type === 'PRIVATE' || room.passwordHash !== null;
}

/**
 * The door's identity: admissions name the door they passed, so changing a
 * room's password, guest password or type closes it to those admitted before.
 */
export function doorOf(room: DoorFields): string {
  return createHash('sha256')
    .update(`${room.type}\n${room.passwordHash ?? ''}\n${room.guestPasswordHash ?? ''}`)
    .digest('base64url')
    .slice(0, 22);
}

/** Room role holders and global roles are behind every door of the room. Pass active roles. */
export function isInsider(roles: ReadonlyArray<Pick<RoomRole, 'role'>>, tokenRole: string): boolean {
  return isGlobalRole(tokenRole) || highestRole(roles) !== null;
}

export function decideAccess(question: {
  room: DoorFields;
  /** The user's active roles in the room. */
  roles: ReadonlyArray<Pick<RoomRole, 'role' | 'expirationTime'>>;
  tokenRole: string;
  /** The door the user passed last (Admissions), if any. */
  passedDoor: string | null;
}): AccessDecision {
  const { room, roles, tokenRole, passedDoor } = question;
  const kicked = roles.find((r) => r.role === 'kicked');
  const kickedUntil = kicked?.expirationTime ?? null;
  if (hasRole(roles, 'banned')) return { mayRead: false, mayEnter: false, refusal: 'banned', kickedUntil };
  const behindDoor = !hasDoor(room) || isInsider(roles, tokenRole) || passedDoor === doorOf(room);
  const door: AccessRefusal | null = behindDoor ? null : room.passwordHash !== null ? 'passwordRequired' : 'private';
  const refusal = kicked ? 'kicked' : door;
  return { mayRead: behindDoor, mayEnter: refusal === null, refusal, kickedUntil };
}

/**
 * Entering: what stands between the user and the room. 'password' when only the
 * password does (the caller checks it), a refusal nothing lifts now, or null.
 * Entering a PRIVATE room without a password by its link is how one passes its door.
 */
export function entryObstacle(decision: AccessDecision): 'banned' | 'kicked' | 'password' | null {
  if (decision.refusal === 'banned' || decision.refusal === 'kicked') return decision.refusal;
  return decision.refusal === 'passwordRequired' ? 'password' : null;
}

/** Who is behind doors: users admitted to rooms, by the door they passed, for ADMISSION_TTL_MS. */
export interface Admissions {
  admit(roomUuid: string, userUuid: string, door: string): Promise<void>;
  /** The door each user passed in each room asked (null when none), in the order asked. */
  passed(pairs: ReadonlyArray<{ roomUuid: string; userUuid: string }>): Promise<Array<string | null>>;
}

/** Services and global roles see every room, listed or not; everyone else finds only PUBLIC, listed rooms in directories. */
export function seesEveryRoom(tokenRole: string): boolean {
  return tokenRole === 'service' || isGlobalRole(tokenRole);
}
