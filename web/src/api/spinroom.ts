// Every REST call the client makes, by feature. Components call these through
// React Query (keys in ./keys.ts); nothing else builds a URL.
import { api, PLAYLIST, ROOM, UPLOAD, USER } from './client';
import type { AccessGrant, Crate, Room, RoomDesign, RoomRole, RoomTypeName, Song, UploadedSong, UserProfile, UserRoleEntry } from './types';

export const auth = {
  signUp: (body: { email: string; password: string; nickname?: string }) =>
    api.post<AccessGrant>(`${USER}/users/sign-up`, body, { anonymous: true }),
  login: (body: { email: string; password: string }) => api.post<AccessGrant>(`${USER}/auth/login`, body, { anonymous: true }),
  guest: () => api.get<AccessGrant>(`${USER}/auth/guest`, { anonymous: true }),
  session: () => api.get<{ userUuid: string; kind: 'user' | 'guest' | 'bot'; roles: string[] }>(`${USER}/auth/session`),
  /** Mails a sign-in link; the answer is the same whether or not the address has an account. */
  requestMagicLink: (email: string) => api.get<object>(`${USER}/auth/magic-link`, { query: { email }, anonymous: true }),
  validateMagicLink: (token: string) => api.post<AccessGrant>(`${USER}/auth/validate-magic-link`, { token }, { anonymous: true }),
  forgotPassword: (email: string) => api.post<object>(`${USER}/users/forgot-password`, { email }, { anonymous: true }),
  resetPassword: (token: string, newPassword: string) =>
    api.post<object>(`${USER}/users/reset-password`, { token, newPassword }, { anonymous: true }),
  sendPhoneCode: (phone: string, channel: 'sms' | 'whatsapp') =>
    api.post<{ phone: string; channel: 'sms' | 'whatsapp'; status: string }>(
      `${USER}/mobile-auth/send-code`,
      { phone, channel },
      { anonymous: true },
    ),
  /** Signs in the account holding the number, or signs one up with it (`created`). */
  verifyPhoneCode: (phone: string, code: string) =>
    api.post<AccessGrant & { created: boolean }>(`${USER}/mobile-auth/verify-code`, { phone, code }, { anonymous: true }),
};

export const profiles = {
  mine: () => api.get<UserProfile>(`${USER}/users/profile`),
  update: (body: Partial<Pick<UserProfile, 'nickname' | 'avatarId' | 'color'>>) => api.post<UserProfile>(`${USER}/users/profile`, body),
  other: (uuid: string) => api.get<UserProfile>(`${USER}/profile/${encodeURIComponent(uuid)}`),
};

export interface RoomFavorite {
  id: number;
  roomUuid: string;
  room?: Room;
}

export interface CreateRoomInput {
  name: string;
  type?: RoomTypeName;
  password?: string;
  design?: RoomDesign;
  numberOfDjs?: number;
}

export const rooms = {
  public: () => api.get<{ rooms: Room[]; total: number }>(`${ROOM}/rooms/public`, { query: { limit: 50 } }).then((r) => r.rooms),
  promoted: () => api.get<Room[]>(`${ROOM}/rooms/promoted-rooms`),
  owned: () => api.get<Room[]>(`${ROOM}/rooms/owned-rooms/list`),
  recent: () => api.get<Room[]>(`${ROOM}/rooms/recent`),
  favorites: () => api.get<Room[]>(`${ROOM}/rooms/favorites`, { query: { includePrivate: true } }),
  favoriteEntries: () => api.get<RoomFavorite[]>(`${ROOM}/api/v1/room-favorites`, { query: { limit: 100 } }),
  addFavorite: (roomUuid: string) => api.post<RoomFavorite>(`${ROOM}/api/v1/room-favorites`, { roomUuid }),
  removeFavorite: (id: number) => api.delete<object>(`${ROOM}/api/v1/room-favorites/${id}`),
  create: (body: CreateRoomInput) => api.post<Room>(`${ROOM}/rooms/infrastructure`, body),
  get: (slug: string) => api.get<Room>(`${ROOM}/rooms/${encodeURIComponent(slug)}`),
  join: (slug: string, password?: string) => api.post<Room>(`${ROOM}/rooms/${encodeURIComponent(slug)}/join`, password ? { password } : {}),
  pin: (slug: string, pinnedMessages: unknown[]) =>
    api.post<Room>(`${ROOM}/rooms/${encodeURIComponent(slug)}/pinned-messages`, { pinnedMessages }),
  kick: (slug: string, userUuid: string) => api.post<UserRoleEntry>(`${ROOM}/roomUserRoles/kick-user-from-room`, { slug, userUuid }),
  roles: (slug: string) => api.get<UserRoleEntry[]>(`${ROOM}/roomUserRoles/${encodeURIComponent(slug)}`),
  grantRole: (slug: string, userUuid: string, role: RoomRole, expirationTime?: string | null) =>
    api.post<UserRoleEntry>(`${ROOM}/roomUserRoles/${encodeURIComponent(slug)}`, {
      userUuid,
      role,
      ...(expirationTime ? { expirationTime } : {}),
    }),
  removeRole: (slug: string, userUuid: string, role: RoomRole) =>
    api.delete<object>(`${ROOM}/roomUserRoles/${encodeURIComponent(slug)}`, { userUuid, role }),
  joinChat: (slug: string) => api.post<{ groupId: string }>(`${ROOM}/roomUserRoles/cometchat/join/${encodeURIComponent(slug)}`),
};

/** The path of a crate's resource: the queue and likes have their own. */
export function cratePath(crate: Pick<Crate, 'crateUuid' | 'special'>): string {
  return crate.special ? `${PLAYLIST}/crate/special/${crate.special}` : `${PLAYLIST}/crate/${crate.crateUuid}`;
}

export type SongToAdd =
  | { songId: string }
  | { musicProvider: string; songId: string; trackName: string; artistName: string; duration: number; isrc?: string };

/** Where a copied crate's songs go: 'queue', 'likes', or the uuid of a crate of the caller's. */
export type CopyTarget = string;

/** Every song of a crate, a page of 100 at a time (a crate holds at most 5,000). */
async function allCrateSongs(crate: Pick<Crate, 'crateUuid' | 'special'>): Promise<Song[]> {
  const songs: Song[] = [];
  for (;;) {
    const page = await api.get<{ songs: Song[]; count: number }>(`${cratePath(crate)}/songs`, {
      query: { limit: 100, offset: songs.length },
    });
    songs.push(...page.songs);
    if (page.songs.length < 100 || songs.length >= page.count) return songs;
  }
}

export const crates = {
  list: () => api.get<{ crates: Crate[] }>(`${PLAYLIST}/crate/user`, { query: { limit: 100 } }).then((r) => r.crates),
  /** Public crates with songs (Spinroom's GET /crate/public): `q` matches names and descriptions. */
  publicCrates: (q: string, offset = 0, limit = 20) =>
    api.get<{ crates: Crate[]; total: number }>(`${PLAYLIST}/crate/public`, { query: { q: q || undefined, limit, offset } }),
  /** A crate the caller may read, into a new crate of theirs, or onto `into` without the songs it already holds. */
  copy: (crate: Pick<Crate, 'crateUuid'>, into?: CopyTarget) =>
    api.put<Crate & { songsAdded: number }>(`${PLAYLIST}/crate/${crate.crateUuid}/copy`, undefined, { query: { into } }),
  allSongs: allCrateSongs,
  create: (crateName: string) => api.post<Crate>(`${PLAYLIST}/crate`, { crateName }),
  rename: (crate: Crate, crateName: string) => api.patch<Crate>(cratePath(crate), { crateName }),
  remove: (crate: Crate) => api.delete<object>(cratePath(crate)),
  songs: (crate: Crate) => api.get<{ songs: Song[] }>(`${cratePath(crate)}/songs`, { query: { limit: 100 } }).then((r) => r.songs),
  addSongs: (crate: Crate, songs: SongToAdd[], append = true) =>
    api.post<{ songs: Song[] }>(`${cratePath(crate)}/songs`, { songs, append }),
  removeSong: (crate: Crate, crateSongUuid: string) => api.delete<object>(`${cratePath(crate)}/songs/${crateSongUuid}`),
  moveSong: (crate: Crate, crateSongUuid: string, position: number) =>
    api.put<{ songs: Song[] }>(`${cratePath(crate)}/songs/${crateSongUuid}/position`, { position }).then((r) => r.songs),
  shuffle: (crate: Crate) => api.post<{ songs: Song[] }>(`${cratePath(crate)}/songs/shuffle`),
  queueSongs: () => api.get<{ songs: Song[] }>(`${PLAYLIST}/crate/special/queue/songs`, { query: { limit: 100 } }).then((r) => r.songs),
  addToQueue: (songs: SongToAdd[]) => api.post<{ songs: Song[] }>(`${PLAYLIST}/crate/special/queue/songs`, { songs, append: true }),
};

export interface SearchProvider {
  name: string;
  label: string;
  enabled: boolean;
}

export const search = {
  providers: () => api.get<{ providers: SearchProvider[] }>(`${PLAYLIST}/song-data/providers`).then((r) => r.providers),
  songs: (q: string, provider: string, signal?: AbortSignal) =>
    api
      .get<{ songs: Song[] }>(`${PLAYLIST}/search`, {
        query: { q, provider: provider === 'catalogue' ? undefined : provider, limit: 20 },
        signal,
      })
      .then((r) => r.songs),
};

export const uploads = {
  mine: () => api.get<{ songs: UploadedSong[] }>(`${UPLOAD}/songs`, { query: { limit: 50 } }).then((r) => r.songs),
  one: (songId: string) => api.get<UploadedSong>(`${UPLOAD}/songs/${songId}`),
};

export const recentSongs = {
  list: (slug: string) =>
    api
      .get<{
        songPlays: Array<{
          playId: string;
          djUuid: string;
          song: Song;
          playedAt: string;
          voteCounts: { likes: number; dislikes: number; stars: number };
        }>;
      }>(`${PLAYLIST}/rooms/${encodeURIComponent(slug)}/recent-songs`)
      .then((r) => r.songPlays),
};
