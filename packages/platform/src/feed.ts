/**
 * The room feed's wire between the services that change a room (room, chat)
 * and the BFF replicas that hold the sockets: one Redis channel per room,
 * carrying frames the BFF forwards verbatim. A frame is a small routing header
 * and the exact JSON text the sockets receive, so a message is serialized once
 * per room, never once per socket:
 *
 *   <kind>|<version>|<userUuid>|<json>
 *
 * kind: `s` stateful (a patch producing `version`), `e` stateless to everyone,
 * `c` a room chat message to everyone but those who blocked its sender (the
 * userUuid field names the sender), `u` stateless to one user's connections,
 * `k` sent to one user whose connections then close (kicked), `r` sent to
 * everyone, then every connection closes (room reset).
 */

import type { OneTimeAnimationName } from '@spinroom/contracts/vocabulary';

export type FeedFrameKind = 's' | 'e' | 'c' | 'u' | 'k' | 'r';

export interface FeedFrame {
  kind: FeedFrameKind;
  /** The room version a stateful frame produces; 0 for the others. */
  version: number;
  /** The one user a `u` or `k` frame is for, a `c` frame's sender; empty otherwise. */
  userUuid: string;
  json: string;
}

export function feedChannel(roomUuid: string): string {
  return `feed:room:${roomUuid}`;
}

/**
 * Where the room service tells every BFF that Redis lost the live rooms (a
 * flush, a restart without its data): each BFF sends `roomReset` to every
 * socket in a room, and the clients rejoin. Pub/sub ignores Redis's database
 * number, so the channel names it: platforms on other databases of the same
 * server (tests) are not told.
 */
export function feedResyncChannel(database: number): string {
  return `feed:resync:${database}`;
}

export function encodeFeedFrame(frame: FeedFrame): string {
  return `${frame.kind}|${frame.version}|${frame.userUuid}|${frame.json}`;
}

const KINDS: ReadonlySet<string> = new Set<FeedFrameKind>(['s', 'e', 'c', 'u', 'k', 'r']);

/** The frame, or undefined for anything malformed (dropped, never forwarded). */
export function decodeFeedFrame(raw: string): FeedFrame | undefined {
  const first = raw.indexOf('|');
  const second = raw.indexOf('|', first + 1);
  const third = raw.indexOf('|', second + 1);
  if (first !== 1 || second < 0 || third < 0) return undefined;
  const kind = raw[0]!;
  const version = Number(raw.slice(first + 1, second));
  if (!KINDS.has(kind) || !Number.isSafeInteger(version)) return undefined;
  return { kind: kind as FeedFrameKind, version, userUuid: raw.slice(second + 1, third), json: raw.slice(third + 1) };
}

/**
 * The feed's server messages (ROOM-FEED.md and Spinroom's additions), named
 * and typed once for every publisher (the room service, the chat service, the
 * BFF), in the style of u-wave/core's `redisMessages.ts`. Stateful messages
 * carry a JSON patch of the room state (RFC 6902) producing a new version.
 */
export const STATEFUL_FEED_MESSAGES = [
  'userJoined',
  'userLeft',
  'addedDj',
  'removedDj',
  'playedSong',
  'updatedNextSong',
  'votedOnSong',
  'updatedUserData',
  'updatedRoomSettings',
  'updatedWaitlist',
  'updatedLeaveAfterSong',
  'warnedAfkDj',
] as const;
export type StatefulFeedMessageName = (typeof STATEFUL_FEED_MESSAGES)[number];

/** Stateless messages, by name, with their params. */
export interface StatelessFeedMessages {
  playedOneTimeAnimation: { userUuid: string; animation: OneTimeAnimationName; emoji?: string };
  /** To the DJ alone: they leave the stage at `removeAt` (ms) unless they act. */
  warnedAfkDj: { userUuid: string; removeAt: number };
  /** To the kicked or banned user alone; their connections then close. */
  kickedFromRoom: { reason: string };
  /** To everyone; every connection then closes and clients rejoin. */
  roomReset: Record<string, never>;
  /** A room's chat message as the chat API answers it (its MessageView), new, edited or reacted to. */
  sentChatMessage: { message: object };
  editedChatMessage: { message: object };
  reactedToChatMessage: { message: object };
}
export type StatelessFeedMessageName = keyof StatelessFeedMessages;

// Every stateless message once, at run time: a record so a name missing or unknown is a type error.
const STATELESS_NAMES: Record<StatelessFeedMessageName, true> = {
  playedOneTimeAnimation: true,
  warnedAfkDj: true,
  kickedFromRoom: true,
  roomReset: true,
  sentChatMessage: true,
  editedChatMessage: true,
  reactedToChatMessage: true,
};
export const STATELESS_FEED_MESSAGES = Object.keys(STATELESS_NAMES) as StatelessFeedMessageName[];

/** A stateless message of one name with its params. */
export type StatelessFeedMessage<N extends StatelessFeedMessageName = StatelessFeedMessageName> = {
  [K in N]: { name: K; params: StatelessFeedMessages[K] };
}[N];

export type FeedMessage = { name: StatefulFeedMessageName; statePatch: unknown[] } | StatelessFeedMessage;

/**
 * A server message to a room's sockets, in the original's envelope (ROOM-FEED.md).
 * A stateful message's `version` goes on the envelope and inside `message`:
 * the published client hands its listeners only `message`.
 */
export function roomMessageJson(input: { roomUuid: string; sentAt: number; message: FeedMessage; version?: number }): string {
  return JSON.stringify({
    context: 'user',
    room: input.roomUuid,
    from: 'server',
    sentAt: input.sentAt,
    messageId: input.version ?? 0,
    message: input.version !== undefined ? { ...input.message, version: input.version } : input.message,
    ...(input.version !== undefined ? { version: input.version } : {}),
  });
}
