// The BFF's shapes this client reads (see /api/openapi.json): RoomDto,
// MinimalCrateSongResDTO / CrateSong, Crate, UserProfile, UserRoles.

// The spec's words, from the one list of each (types only: nothing of these packages reaches the bundle).
import type { PinnedMessageJson } from '@spinroom/contracts/rooms';
import type { DjTypeName, OneTimeAnimationName, RoomDesignName, RoomTypeName } from '@spinroom/contracts/vocabulary';
import type { RoomRoleName } from '@spinroom/platform/vocabulary';

export type RoomDesign = RoomDesignName;

export type RoomRole = RoomRoleName;

export interface UserRoleEntry {
  id?: number;
  userUuid: string;
  role: RoomRole;
  expirationTime: string | null;
}

export type PinnedMessage = PinnedMessageJson;

export type { OneTimeAnimationName, RoomTypeName };

export interface Room {
  id: number;
  uuid: string;
  slug: string;
  name: string;
  description: string;
  design: RoomDesign;
  type: RoomTypeName;
  djType: DjTypeName;
  numberOfDjs: number;
  isLive: boolean;
  promoted: boolean;
  hasChat: boolean;
  isPasswordProtected: boolean;
  pinnedMessages: PinnedMessage[];
  ownerUuid: string;
  numberOfUsersInRoom?: number;
  /** The song playing now; null while none plays (or for a caller who may not see inside). */
  song?: Song | null;
  /** The DJs on stage in turn order, the first playing. */
  djUuids?: string[];
  numberOfActiveDjs?: number;
  roomRoles?: UserRoleEntry[];
  waitlistEnabled?: boolean;
  /** Paid rooms (issue 16): the tokens entering costs, once per person, past `freeEntries` free entries; 0 = free. */
  entryFee?: number;
  freeEntries?: number;
  /** Client-side: whether the caller has this room among their favourites. */
  favorited?: boolean;
}

export type ProviderMap = Record<string, string>;

export interface Song {
  songId?: string;
  songShortId?: string;
  isrc?: string;
  trackName: string;
  artistName: string;
  duration: number;
  explicit?: boolean;
  genre?: string;
  albumName?: string;
  musicProviders?: ProviderMap;
  thumbnails?: ProviderMap;
  previews?: ProviderMap;
  streamUrls?: ProviderMap;
  /** SoundCloud's secret token of a private track. */
  playbackToken?: string;
  status?: string;
  crateSongUuid?: string;
  position?: number;
}

export interface Crate {
  crateUuid: string;
  crateName: string;
  description?: string;
  userUuid: string;
  isPublic?: boolean;
  special?: 'queue' | 'likes' | '';
  crateSongsNumber?: number;
  importStatus?: 'IN_PROGRESS' | 'FAILED' | 'COMPLETE';
}

export interface UserProfile {
  uuid: string;
  nickname: string;
  avatarId: string;
  color: string;
  badges?: string[];
  createdAt?: string;
  firstName?: string | null;
  lastName?: string | null;
  pronoun?: string | null;
}

export interface AccessGrant {
  accessToken: string;
  userUuid: string;
}

export interface UploadedSong {
  songId: string;
  trackName: string | null;
  artistName: string | null;
  duration: number;
  status: string;
  fileName: string;
  createdAt: string;
}

// The live room (ROOM-FEED.md).
export interface RoomUser {
  uuid: string;
  tokenRole?: string;
  highestRole?: string;
  canDj?: boolean;
}

export interface UserData {
  userProfile?: Partial<UserProfile>;
  position?: { x: number; y: number };
  songVotes?: { like?: boolean; star?: boolean };
}

export interface NowPlaying {
  song: Song;
  startTime: number;
  endTime: number;
}

export interface RoomState {
  allUserData: Record<string, UserData>;
  allUsers: RoomUser[];
  audienceUsers: RoomUser[];
  floorUsers: RoomUser[];
  djs: Array<RoomUser & { nextSong?: Song | null }>;
  visibleDjs: Array<RoomUser & { nextSong?: Song | null }>;
  nowPlaying: NowPlaying | null;
  settings: Room;
  vibeMeter: number;
  voteCounts: { likes: number; dislikes: number; stars: number };
  waitlist?: string[];
  songsRemainingForDj?: number;
}
