import type { PerformLiveActionRequest } from '@spinroom/contracts/room/v1/live_room';
import { songFromJson } from '@spinroom/contracts/songs';
import { ONE_TIME_ANIMATIONS, oneTimeAnimations } from '@spinroom/contracts/vocabulary';
import { badRequest } from '@spinroom/platform/core';
import { z } from 'zod';
import { FEED_ERROR_CODES } from './feed-errors.js';

/** A live action as the room service takes it: live_room.proto's oneof, the one list of them. */
export type LiveAction = NonNullable<PerformLiveActionRequest['action']>;
export type LiveActionName = LiveAction['$case'];

const Uuid = z.uuid();
const ProviderMap = z.record(z.string().max(32), z.string().max(2048));

/** `MinimalCrateSongResDTO` as clients send it (extra catalogue fields kept, unknown ones dropped), as its message. */
export const SongSchema = z
  .object({
    songId: z.string().max(64).optional(),
    songShortId: z.string().max(32).optional(),
    crateSongUuid: z.string().max(64).optional(),
    artistName: z.string().max(512),
    trackName: z.string().max(512),
    genre: z.string().max(255).nullable().default(null),
    duration: z
      .number()
      .int()
      .min(0)
      .max(24 * 3600),
    isrc: z.string().max(16).nullable().default(null),
    explicit: z.boolean().optional(),
    musicProviders: ProviderMap,
    thumbnails: ProviderMap.default({}),
    links: ProviderMap.optional(),
    previews: ProviderMap.optional(),
    streamUrls: ProviderMap.optional(),
    playbackToken: z.string().max(2048).nullable().default(null),
    status: z.string().max(32).optional(),
    position: z
      .number()
      .int()
      .min(-(2 ** 31))
      .max(2 ** 31 - 1)
      .optional(),
  })
  .transform(songFromJson);

type ActionValue<K extends LiveActionName> = Extract<LiveAction, { $case: K }>['value'];

/**
 * Each live action's params as the feed's JSON carries them (ROOM-FEED.md),
 * validated and turned into the action's message. Typed against the proto's
 * oneof: an action added there and missing here does not compile.
 */
const ACTION_PARAMS: { [K in LiveActionName]: z.ZodType<ActionValue<K>, unknown> } = {
  addDj: z.object({ song: SongSchema.optional() }),
  removeDj: z.object({ djUuid: Uuid.optional() }),
  updateNextSong: z.object({ song: SongSchema }),
  skipSong: z.object({}),
  voteOnSong: z.object({ songVotes: z.object({ like: z.boolean().optional(), star: z.boolean().optional() }) }),
  playOneTimeAnimation: z.object({
    animation: z.enum(ONE_TIME_ANIMATIONS).transform(oneTimeAnimations.valueOf),
    emoji: z.string().min(1).max(16).optional(),
  }),
  joinWaitlist: z.object({}),
  leaveWaitlist: z.object({ targetUserUuid: Uuid.optional() }),
  moveInWaitlist: z.object({
    targetUserUuid: Uuid,
    position: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1),
  }),
  leaveAfterSong: z.object({ enabled: z.boolean().default(true) }),
};

/** Every live action's name, as the feed's clients send it. */
export const LIVE_ACTION_NAMES = Object.keys(ACTION_PARAMS) as LiveActionName[];

export function isLiveAction(name: string): name is LiveActionName {
  return Object.hasOwn(ACTION_PARAMS, name);
}

/** The typed action for a live action's name and its JSON params; a coded 400 listing what is wrong. */
export function liveAction(name: LiveActionName, params: Record<string, unknown>): LiveAction {
  const parsed = ACTION_PARAMS[name].safeParse(params);
  if (!parsed.success) {
    throw badRequest(
      parsed.error.issues.map((i) => `${i.path.join('.') || 'params'}: ${i.message}`),
      FEED_ERROR_CODES.invalidAction,
    );
  }
  return { $case: name, value: parsed.data } as LiveAction;
}
