import type { MinimalCrateSongJson } from '@spinroom/contracts/songs';
import type { Role } from '@spinroom/platform';

/**
 * The live state of a room, in the original's shapes (ttfm-socket's
 * `ClientRoomState`), plus what only the server needs. Clients see `client`;
 * every change to it is published as an RFC 6902 patch of `client`.
 */

/** The caller's token role: the platform's list. */
export type TokenRole = Role;

/** `MinimalCrateSongResDTO`: how songs travel in crates, the queue and the feed (its one definition: @spinroom/contracts/songs). */
export type MinimalCrateSong = MinimalCrateSongJson;

export interface ClientRoomUser {
  uuid: string;
  tokenRole: TokenRole;
  /** Absent for users without a room role. */
  highestRole?: string;
  canDj: boolean;
}

export interface ClientDj extends ClientRoomUser {
  nextSong: MinimalCrateSong | null;
}

export interface SongVotes {
  like?: boolean;
  star?: boolean;
}

export interface ClientUserData {
  userProfile: Record<string, unknown>;
  position: { x: number; y: number };
  songVotes: SongVotes;
}

export interface VoteCounts {
  likes: number;
  dislikes: number;
  stars: number;
}

export interface ClientRoomState {
  allUserData: Record<string, ClientUserData>;
  /** Signed-in users in the room (guests excluded). */
  allUsers: ClientRoomUser[];
  /** Everyone in the room who is not on stage, guests included. */
  audienceUsers: ClientRoomUser[];
  djs: ClientDj[];
  /** Signed-in users on the dance floor: the audience without guests. */
  floorUsers: ClientRoomUser[];
  nowPlaying: { song: MinimalCrateSong; startTime: number; endTime: number } | null;
  settings: Record<string, unknown>;
  songsRemainingForDj: number;
  vibeMeter: number;
  visibleDjs: ClientDj[];
  voteCounts: VoteCounts;
  /** Spinroom: users waiting for a seat, first in line first. */
  waitlist: string[];
}

/** The room settings the live rules read (a subset of the room's record). */
export interface StageRules {
  numberOfDjs: number;
  /** 0: no limit. */
  songsPerDj: number;
  /** 0: no cap. */
  roomSize: number;
  /** Seconds; 0: no cap. */
  maxSongLengthSeconds: number;
  /** Minutes; 0: a song may be replayed at once. */
  repeatWindowMinutes: number;
  /** Minutes without any action before a DJ is warned; 0: off. */
  afkLimitMinutes: number;
  waitlistEnabled: boolean;
}

/** A user as the room knows them when they join or act. */
export interface Member {
  uuid: string;
  tokenRole: TokenRole;
  highestRole: string | undefined;
  canDj: boolean;
}

export interface Play {
  playId: string;
  djUuid: string;
  /** The queue entry that is playing, requeued when it ends; absent for a song the DJ chose by hand. */
  crateSongUuid?: string;
  songKey: string;
}

export interface ServerState {
  /** Members present, in join order (the lists are derived from it). */
  members: Member[];
  play: Play | null;
  songsPlayedByDj: Record<string, number>;
  /** DJs who leave the stage after their current or next song. */
  leaveAfterSong: string[];
  /** DJs who chose their next song by hand (the queue does not overwrite it). */
  pinnedNextSong: string[];
  /** Last action of each DJ (ms), for AFK. */
  lastActivity: Record<string, number>;
  /** When each AFK DJ was warned (ms). */
  afkWarned: Record<string, number>;
  /** Songs played recently: key and when (ms), newest last. */
  recentPlays: Array<{ songKey: string; playedAt: number }>;
  /** When each member joined (ms); absent in rooms stored before it was kept. */
  joinedAt?: Record<string, number>;
  /** When each member up-voted the song playing (ms), cleared when it ends. */
  likedAt?: Record<string, number>;
}

/** One person hearing a song when it ended, for points (the room-events SongPlayed's audience). */
export interface PlayListener {
  userUuid: string;
  tokenRole: TokenRole;
  /** When they started hearing it (ms): the later of its start and their joining. */
  listeningSince: number;
  /** When they up-voted it (ms), if they did. */
  likedAt?: number;
}

export interface LiveRoom {
  roomUuid: string;
  rules: StageRules;
  client: ClientRoomState;
  server: ServerState;
}

export const EMPTY_VOTES: VoteCounts = { likes: 0, dislikes: 0, stars: 0 };

export function emptyLiveRoom(roomUuid: string, settings: Record<string, unknown>, rules: StageRules): LiveRoom {
  return {
    roomUuid,
    rules,
    client: {
      allUserData: {},
      allUsers: [],
      audienceUsers: [],
      djs: [],
      floorUsers: [],
      nowPlaying: null,
      settings,
      songsRemainingForDj: rules.songsPerDj,
      vibeMeter: 0.5,
      visibleDjs: [],
      voteCounts: { ...EMPTY_VOTES },
      waitlist: [],
    },
    server: {
      members: [],
      play: null,
      songsPlayedByDj: {},
      leaveAfterSong: [],
      pinnedNextSong: [],
      lastActivity: {},
      afkWarned: {},
      recentPlays: [],
      joinedAt: {},
      likedAt: {},
    },
  };
}

/** What identifies a song for the repeat window: its catalogue short id, else a provider id, else its ISRC. */
export function songKey(song: MinimalCrateSong): string {
  if (song.songShortId) return `short:${song.songShortId}`;
  const [provider, id] = Object.entries(song.musicProviders).sort()[0] ?? [];
  if (provider && id) return `${provider}:${id}`;
  if (song.isrc) return `isrc:${song.isrc}`;
  return `name:${song.artistName.toLowerCase()}|${song.trackName.toLowerCase()}`;
}
