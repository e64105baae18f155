// Room favouriting (spec 002 §4): flips the flag in every cached list at once,
// then the lists are refreshed.
import type { Room } from '../api/types';

/** The same list with `favorited` set on the room with this uuid (the same array when nothing changed). */
export function withFavorited(rooms: Room[] | undefined, roomUuid: string, favorited: boolean): Room[] | undefined {
  if (!rooms) return rooms;
  let changed = false;
  const next = rooms.map((room) => {
    if (room.uuid !== roomUuid || !!room.favorited === favorited) return room;
    changed = true;
    return { ...room, favorited };
  });
  return changed ? next : rooms;
}

/** The favourites list itself gains or loses the room. */
export function favoritesWith(rooms: Room[] | undefined, room: Room, favorited: boolean): Room[] | undefined {
  if (!rooms) return rooms;
  const without = rooms.filter((r) => r.uuid !== room.uuid);
  return favorited ? [{ ...room, favorited: true }, ...without] : without;
}

/** Marks each room favourited when its uuid is among the favourites. */
export function markFavorites(rooms: Room[], favoriteUuids: ReadonlySet<string>): Room[] {
  return rooms.map((room) => ({ ...room, favorited: favoriteUuids.has(room.uuid) }));
}
