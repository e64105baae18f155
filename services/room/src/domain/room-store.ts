import type { OutboxEntry } from '@spinroom/platform';
import type { Room } from './room.js';
import type { RoomRole, RoomRoleName } from './room-roles.js';

/**
 * What the room rules need of storage: rooms, their roles, favourites and
 * recent rooms. The rules see no database; db/room-store.ts keeps them in
 * PostgreSQL.
 */

export type RoomRef = { uuid: string } | { slug: string } | { id: number };
export type NewRoom = Omit<Room, 'id' | 'uuid' | 'createdAt' | 'updatedAt'>;

/** A write in progress: the rules hand it back to the store; events staged in it commit (or roll back) with its changes. */
export interface Tx {
  stage(entry: OutboxEntry): void;
}

export interface RoomFavorite {
  id: number;
  userUuid: string;
  roomId: number;
  createdAt: Date;
}

/** A directory for an ordinary caller: PUBLIC listed rooms, and those where the user holds one of these roles. */
export interface Visibility {
  userUuid: string;
  roles: readonly RoomRoleName[];
}

/** Listing filters; see ListRoomsRequest. */
export type RoomFilter =
  | { kind: 'public' }
  | { kind: 'promoted'; providers: string[] }
  | { kind: 'withRole'; userUuid: string; roles: RoomRoleName[] }
  | { kind: 'all'; visibleTo?: Visibility }
  | { kind: 'discordGuild'; guildId: string; visibleTo?: Visibility }
  | { kind: 'favorites'; userUuid: string; includePrivate: boolean }
  | { kind: 'recent'; userUuid: string }
  | { kind: 'community'; communityId: number; visibleTo?: Visibility };

export interface RoomStore {
  /** Runs `fn` in one write; events it stages commit with its changes. */
  write<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** The room, within `tx` when given (locked for the write with `lock`). */
  find(ref: RoomRef, tx?: Tx, lock?: boolean): Promise<Room | null>;
  /** The new room, or null when its slug is taken. */
  insert(tx: Tx, room: NewRoom): Promise<Room | null>;
  slugsLike(base: string): Promise<Set<string>>;
  /** False when the new slug is taken. */
  update(tx: Tx, room: Room, changes: Partial<Room>): Promise<boolean>;
  delete(tx: Tx, room: Room): Promise<void>;
  /** A page of the listing, leaving out rooms owned by any of `hiddenOwners` (user uuids). */
  list(
    filter: RoomFilter,
    page: { limit: number; offset: number },
    hiddenOwners?: readonly string[],
  ): Promise<{ rooms: Room[]; total: number }>;
  named(refs: string[]): Promise<Room[]>;
  countPrivate(): Promise<number>;
  byInternalIds(ids: number[]): Promise<Room[]>;
  /** Unexpired roles in these rooms (of one user when given). */
  activeRoles(roomIds: number[], userUuid?: string, tx?: Tx): Promise<RoomRole[]>;
  upsertRole(tx: Tx, roomId: number, userUuid: string, role: RoomRoleName, expirationTime: Date | null): Promise<RoomRole>;
  /** False when the user did not hold the role. */
  deleteRole(tx: Tx, roomId: number, userUuid: string, role: RoomRoleName): Promise<boolean>;
  ownerOf(roomIds: number[], tx?: Tx): Promise<Map<number, string>>;
  deleteRolesOfUser(
    tx: Tx,
    userUuid: string,
    roles: RoomRoleName[],
  ): Promise<Array<{ roomId: number; roomUuid: string; role: RoomRoleName }>>;
  forgetUser(userUuid: string, roles: RoomRoleName[]): Promise<void>;
  recordRecent(userUuid: string, roomId: number, keep: number): Promise<void>;
  addFavorite(userUuid: string, roomId: number): Promise<RoomFavorite>;
  favorites(userUuid: string, options: { limit: number; roomIds?: number[] }): Promise<RoomFavorite[]>;
  favoriteById(id: number): Promise<RoomFavorite | null>;
  removeFavorite(id: number): Promise<void>;
}
