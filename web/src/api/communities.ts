// Communities and events (spec 001, the room service: services/room/README.md
// "Communities and events"): the pages everyone reads, membership, and the
// admin paths the panel uses (global roles; @nestjsx/crud lists).
import { api, ROOM } from './client';
import type { Room } from './types';

export interface Community {
  id: number;
  uuid: string;
  slug: string;
  name: string;
  description: string;
  imageUrl: string | null;
  ownerUuid: string | null;
  membersCount: number;
  roomsCount: number;
  createdAt: string;
  updatedAt: string;
  isMember: boolean;
  memberRole: 'owner' | 'moderator' | 'member' | null;
}

export interface CommunityMember {
  userUuid: string;
  role: 'owner' | 'moderator' | 'member';
  joinedAt: string;
}

export interface SpinEvent {
  id: number;
  uuid: string;
  slug: string;
  name: string;
  description: string;
  imageUrl: string | null;
  roomId: number;
  roomUuid: string;
  roomSlug: string;
  roomName: string;
  communityId: number | null;
  communityUuid: string | null;
  communitySlug: string | null;
  startTime: string;
  endTime: string;
  liveAt: string | null;
  status: 'upcoming' | 'live' | 'ended';
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

/** The crud lists' answer (`GET /admin/communities`, `/admin/events`, `/admin/rooms`, the audit's moderation actions). */
export interface CrudPage<T> {
  data: T[];
  count: number;
  total: number;
  page: number;
  pageCount: number;
}

export interface CommunityInput {
  name?: string;
  slug?: string;
  description?: string;
  imageUrl?: string | null;
  ownerUuid?: string | null;
}

export interface EventInput {
  name?: string;
  slug?: string;
  description?: string;
  room?: string;
  community?: string | null;
  startTime?: string;
  endTime?: string;
}

export const PANEL_PAGE_SIZE = 20;
const key = (idOrSlug: string | number) => encodeURIComponent(String(idOrSlug));

/**
 * One page of an admin list in the @nestjsx/crud syntax: newest first, `search`
 * matching the name or slug (case-insensitive), as the room service's parser reads it.
 */
export function adminListQuery(search: string, page: number, sort = 'id,DESC'): Record<string, string> {
  const q = search.trim();
  return {
    sort,
    limit: String(PANEL_PAGE_SIZE),
    page: String(page),
    ...(q ? { s: JSON.stringify({ $or: [{ name: { $contL: q } }, { slug: { $contL: q } }] }) } : {}),
  };
}

/** Room slugs or uuids typed one per line, by commas or spaces: each once, in order (1..100 for the add path). */
export function roomKeysOf(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,]+/)
        .map((k) => k.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
}

export const communities = {
  get: (idOrSlug: string | number) => api.get<Community>(`${ROOM}/communities/${key(idOrSlug)}`),
  mine: () => api.get<Community[]>(`${ROOM}/user-communities`),
  /** Every community, the most members first; `search` in the name or slug. */
  all: (search: string, offset = 0, limit = PANEL_PAGE_SIZE) =>
    api.get<{ communities: Community[]; total: number }>(`${ROOM}/communities`, { query: { search: search.trim(), limit, offset } }),
  members: (idOrSlug: string | number, offset = 0, limit = PANEL_PAGE_SIZE) =>
    api.get<{ users: CommunityMember[]; total: number }>(`${ROOM}/communities/${key(idOrSlug)}/users`, { query: { limit, offset } }),
  rooms: (idOrSlug: string | number, offset = 0, limit = PANEL_PAGE_SIZE) =>
    api.get<{ rooms: Room[]; total: number }>(`${ROOM}/communities/${key(idOrSlug)}/rooms`, { query: { limit, offset } }),
  join: (idOrSlug: string | number) => api.post<Community>(`${ROOM}/communities/${key(idOrSlug)}/join`),
  leave: (idOrSlug: string | number) => api.post<Community>(`${ROOM}/communities/${key(idOrSlug)}/leave`),
  addRooms: (idOrSlug: string | number, rooms: string[]) =>
    api.post<{ community: Community; changed: number }>(`${ROOM}/communities/${key(idOrSlug)}/add`, { rooms }),
  removeRooms: (idOrSlug: string | number, rooms: string[]) =>
    api.post<{ community: Community; changed: number }>(`${ROOM}/communities/${key(idOrSlug)}/remove`, { rooms }),
  adminList: (search: string, page: number) =>
    api.get<CrudPage<Community>>(`${ROOM}/admin/communities`, { query: adminListQuery(search, page) }),
  create: (body: CommunityInput) => api.post<Community>(`${ROOM}/admin/communities`, body),
  update: (id: number, body: CommunityInput) => api.patch<Community>(`${ROOM}/admin/communities/${id}`, body),
  remove: (id: number) => api.delete<object>(`${ROOM}/admin/communities/${id}`),
};

export const events = {
  upcoming: (community?: string, offset = 0, limit = PANEL_PAGE_SIZE) =>
    api.get<{ events: SpinEvent[]; total: number }>(`${ROOM}/events/upcoming`, { query: { limit, offset, community } }),
  bySlug: (slug: string) => api.get<SpinEvent>(`${ROOM}/events/slug/${key(slug)}`),
  adminList: (search: string, page: number) =>
    api.get<CrudPage<SpinEvent>>(`${ROOM}/admin/events`, { query: adminListQuery(search, page, 'startTime,DESC') }),
  create: (body: EventInput) => api.post<SpinEvent>(`${ROOM}/events`, body),
  update: (id: number, body: EventInput) => api.patch<SpinEvent>(`${ROOM}/events/${id}`, body),
  remove: (id: number) => api.delete<object>(`${ROOM}/events/${id}`),
};
