import { MODERATION_ACTION_TYPES } from '@spinroom/contracts/moderation';
import { STATEFUL_FEED_MESSAGES, STATELESS_FEED_MESSAGES } from '@spinroom/platform/core';
import { PLAY_KINDS } from './plays.js';

/**
 * The room feed's socket events (ROOM-FEED.md): the actions a client sends,
 * then the messages the server pushes, as the platform names them once
 * (packages/platform/src/feed.ts), then the original's messages Spinroom does
 * not send but its clients know.
 */
const CLIENT_ACTIONS = [
  'joinRoom',
  'addDj',
  'removeDj',
  'updateNextSong',
  'skipSong',
  'voteOnSong',
  'playOneTimeAnimation',
  'joinWaitlist',
  'leaveWaitlist',
  'moveInWaitlist',
  'leaveAfterSong',
];
const ORIGINAL_ONLY_MESSAGES = ['lookedUpSong', 'updatedUserProfile', 'updatedGuestPassword'];

export const SOCKET_EVENT_NAMES: readonly string[] = [
  ...new Set([...CLIENT_ACTIONS, ...STATEFUL_FEED_MESSAGES, ...STATELESS_FEED_MESSAGES, ...ORIGINAL_ONLY_MESSAGES]),
];

/** A page view or an app event of `/kinesis`, by name. */
export const PAGE_VIEW_EVENT = 'pageView';
export const APP_EVENT = 'appEvent';

/**
 * The events the audit service records of a user, each a user's "last event"
 * may be: the play-tracking kinds, a page view, an app event, and every
 * moderation action type (the user acted or was acted on).
 */
export const USER_EVENT_NAMES: readonly string[] = [...PLAY_KINDS, PAGE_VIEW_EVENT, APP_EVENT, ...MODERATION_ACTION_TYPES];
