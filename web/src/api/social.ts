// The social service (services/social/README.md, REST base /api/social-service):
// friends and their invitations, DJ fans (follow, counts, pages of 12), blocks.
import { api } from './client';
import { ApiError } from './errors';

export const SOCIAL = '/api/social-service';
/** Spec 002's fans and following pages. */
export const FANS_PAGE = 12;

/** A page of a list: `{data, total, skip, take}`; the next page exists only while items remain. */
export interface Page<T> {
  data: T[];
  total: number;
  skip: number;
  take: number;
}

export type InvitationStatus = 'PENDING' | 'ACCEPTED' | 'REJECTED';

export interface FriendInvitation {
  id: string;
  fromUuid: string;
  toUuid: string;
  status: InvitationStatus;
  createdAt: string;
  answeredAt: string | null;
}

export interface Friend {
  /** The friendship's id, the same from either side. */
  id: string;
  userUuid: string;
  friendUuid: string;
  createdAt: string;
}

export interface DjFan {
  id: string;
  fanUuid: string;
  djUuid: string;
  createdAt: string;
}

export interface Block {
  id: string;
  blockerUuid: string;
  blockedUuid: string;
  createdAt: string;
}

export interface FanCounts {
  count: number;
  fans: number;
  following: number;
}

/** Where the next page starts, or undefined when this page was the last. */
export function nextSkip(page: Page<unknown>): number | undefined {
  const next = page.skip + page.data.length;
  return page.data.length > 0 && next < page.total ? next : undefined;
}

/** A 404 as "there is none" (no friendship, no follow, no block); anything else still fails. */
async function orNull<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

const id = (uuid: string) => encodeURIComponent(uuid);
const paged = (skip: number, take: number) => ({ query: { skip, take } });

export const social = {
  // Friends and invitations.
  invite: (userUuid: string) => api.post<FriendInvitation>(`${SOCIAL}/friend-invitations`, { userUuid }),
  /** Pending invitations sent to the caller. */
  received: (skip = 0, take = 100) =>
    api.get<Page<FriendInvitation>>(`${SOCIAL}/friend-invitations/user-invitations-for`, paged(skip, take)),
  /** Pending invitations the caller sent. */
  sent: (skip = 0, take = 100) => api.get<Page<FriendInvitation>>(`${SOCIAL}/friend-invitations/user-invitations-from`, paged(skip, take)),
  answer: (invitationId: string, status: 'ACCEPTED' | 'REJECTED') =>
    api.post<{ invitation: FriendInvitation; friend: Friend | null }>(`${SOCIAL}/friend-invitations/handle-friend`, {
      invitationId,
      status,
    }),
  /** Its sender withdraws it. */
  withdraw: (invitationId: string) => api.delete<object>(`${SOCIAL}/friend-invitations/${id(invitationId)}`),
  friends: (userUuid: string, skip = 0, take = FANS_PAGE) =>
    api.get<Page<Friend>>(`${SOCIAL}/friends/list/${id(userUuid)}`, paged(skip, take)),
  /** The caller's friendship with a user, or null. */
  friendship: (userUuid: string) => orNull(api.get<Friend>(`${SOCIAL}/friends/single-friend/${id(userUuid)}`)),
  removeFriend: (userUuid: string) => api.delete<object>(`${SOCIAL}/friends/${id(userUuid)}`),

  // DJ fans.
  follow: (djUuid: string) => api.post<DjFan>(`${SOCIAL}/dj-fans`, { djUuid }),
  unfollow: (djUuid: string) => api.delete<object>(`${SOCIAL}/dj-fans/${id(djUuid)}`),
  /** The caller's follow of a DJ, or null. */
  fanOf: (djUuid: string) => orNull(api.get<DjFan>(`${SOCIAL}/dj-fans/dj-fan/${id(djUuid)}`)),
  counts: (userUuid: string) => api.get<FanCounts>(`${SOCIAL}/dj-fans/count/${id(userUuid)}`),
  /** A DJ's fans, 12 a page. */
  followers: (userUuid: string, skip = 0) =>
    api.get<Page<DjFan>>(`${SOCIAL}/dj-fans/dj-fans-paginated/${id(userUuid)}`, paged(skip, FANS_PAGE)),
  /** The DJs a user follows, 12 a page. */
  following: (userUuid: string, skip = 0) => api.get<Page<DjFan>>(`${SOCIAL}/dj-fans/${id(userUuid)}/djs-followed`, paged(skip, FANS_PAGE)),

  // Blocks.
  block: (userUuid: string) => api.post<Block>(`${SOCIAL}/blocked-users`, { blockedUserUuid: userUuid }),
  unblock: (userUuid: string) => api.delete<object>(`${SOCIAL}/blocked-users/${id(userUuid)}`),
  blocks: (skip = 0, take = FANS_PAGE) => api.get<Page<Block>>(`${SOCIAL}/blocked-users`, paged(skip, take)),
  /** The caller's block of a user, or null. */
  blockOf: (userUuid: string) => orNull(api.get<Block>(`${SOCIAL}/blocked-users/${id(userUuid)}`)),
};

/** Where the caller stands with someone: what the profile and the room's menu offer. */
export interface Relation {
  friend: Friend | null;
  fan: DjFan | null;
  block: Block | null;
  /** A pending invitation the caller sent them. */
  invitationSent: FriendInvitation | null;
  /** A pending invitation they sent the caller. */
  invitationReceived: FriendInvitation | null;
}

export async function relationTo(userUuid: string): Promise<Relation> {
  const [friend, fan, block, sent, received] = await Promise.all([
    social.friendship(userUuid),
    social.fanOf(userUuid),
    social.blockOf(userUuid),
    social.sent(),
    social.received(),
  ]);
  return {
    friend,
    fan,
    block,
    invitationSent: sent.data.find((i) => i.toUuid === userUuid && i.status === 'PENDING') ?? null,
    invitationReceived: received.data.find((i) => i.fromUuid === userUuid && i.status === 'PENDING') ?? null,
  };
}
