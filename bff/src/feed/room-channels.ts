import {
  decodeFeedFrame,
  feedChannel,
  feedMetrics,
  feedResyncChannel,
  frameSentAt,
  roomMessageJson,
  type FeedFrame,
  type Logger,
  type Redis,
} from '@spinroom/platform/core';
import { textFrame } from './wire.js';

/** A room's frame as its sockets get it: the JSON, and `wire`, that JSON framed once as a WebSocket text message. */
export interface RoomFrame extends FeedFrame {
  wire: Buffer;
}

/**
 * The frames of a room that came together (in one read of the subscriber, or
 * held for the room's next turn: `fanOutIntervalMs`), in publish order, and
 * `wire`, their WebSocket frames one after the other in one buffer, built once
 * for every socket: a socket that takes them all gets them in one write.
 */
export interface RoomBatch {
  frames: RoomFrame[];
  wire: Buffer;
  /** Every frame a room message for everyone ('s' or 'e'), the stateful ones at consecutive versions. */
  uniform: boolean;
  /** The first and last stateful versions in the batch (0 when it has none). */
  firstVersion: number;
  lastVersion: number;
}

/** Whoever holds sockets of a room and wants its frames. */
export interface FrameListener {
  deliver(batch: RoomBatch): void;
}

/** Frames of a room at most this often when they come faster (ms): each socket's writes gathered into one (see RoomChannels). */
export const DEFAULT_FAN_OUT_INTERVAL_MS = 50;

interface RoomListeners {
  listeners: Set<FrameListener>;
  subscribed: Promise<unknown>;
  /** Frames come and not yet handed to the listeners, in publish order. */
  pending: RoomFrame[];
  /** When they will be, if scheduled: after this turn of the event loop, or at the end of the interval. */
  immediate?: NodeJS.Immediate;
  timer?: NodeJS.Timeout;
  /** When the room's frames were last handed out. */
  lastFlush: number;
}

/**
 * One Redis subscriber for the whole BFF: a room's channel is subscribed while
 * at least one connection here is in the room, and every frame is handed, as
 * the same string and the same WebSocket frame (framed once here), to each of
 * them. Redis delivers a channel's messages in publish order, so every replica
 * sees the same versions in the same order.
 *
 * Frames published while the subscriber was away are lost, and a Redis that
 * lost its data rebuilds rooms at versions the sockets may have passed: when
 * the subscriber connects again, or the room service says Redis lost the live
 * rooms (`feedResyncChannel`), every socket in a room is sent `roomReset` and
 * closed, and its client rejoins with the whole state.
 *
 * Fan-out: a socket write costs the same whatever it holds (on loopback, most
 * of it is the kernel's), and a room of thousands is thousands of writes per
 * message. A room's frames are handed out together: those that came in one
 * read of the subscriber at once (after that read), and, when a room's frames
 * come faster than one every `fanOutIntervalMs` (joins into a big room: one
 * `userJoined` per batch), those that come meanwhile at the end of that
 * interval: each socket then gets all of them in one write of one buffer,
 * built once for the room. A frame of a quiet room goes out at once; no frame
 * waits longer than the interval. The bytes on the wire are the same.
 */
export class RoomChannels {
  private readonly rooms = new Map<string, RoomListeners>();
  private readonly resyncChannel: string;

  constructor(
    private readonly subscriber: Redis,
    private readonly logger: Logger,
    private readonly fanOutIntervalMs = DEFAULT_FAN_OUT_INTERVAL_MS,
  ) {
    subscriber.on('message', (channel: string, raw: string) => this.dispatch(channel, raw));
    this.resyncChannel = feedResyncChannel(subscriber.options.db ?? 0);
    subscriber.subscribe(this.resyncChannel).catch((error: unknown) => logger.warn({ err: error }, 'subscribe to feed resyncs failed'));
    let connectedBefore = false;
    let lost = false;
    subscriber.on('ready', () => {
      if (connectedBefore) this.resyncAll('the feed subscriber reconnected to Redis');
      connectedBefore = true;
      lost = false;
    });
    // Logged once a loss (ioredis retries on its own), not printed at each attempt as an unheard error.
    subscriber.on('error', (error: unknown) => {
      if (!lost) logger.warn({ err: error }, 'the feed subscriber lost Redis; reconnecting');
      lost = true;
    });
  }

  /** Every socket in a room here is sent `roomReset` and closed (its client rejoins). */
  resyncAll(why: string): void {
    this.logger.warn({ rooms: this.rooms.size, why }, 'resetting every room socket');
    for (const [roomUuid, room] of [...this.rooms]) {
      const json = roomMessageJson({ roomUuid, sentAt: Date.now(), message: { name: 'roomReset', params: {} } });
      // After the frames it holds, now.
      room.pending.push({ kind: 'r', version: 0, userUuid: '', json, wire: textFrame(json) });
      this.flush(roomUuid, room);
    }
  }

  /** Resolves once frames of the room reach `listener` (so nothing published after is missed). */
  async add(roomUuid: string, listener: FrameListener): Promise<void> {
    let room = this.rooms.get(roomUuid);
    if (!room) {
      room = { listeners: new Set(), subscribed: this.subscriber.subscribe(feedChannel(roomUuid)), pending: [], lastFlush: 0 };
      this.rooms.set(roomUuid, room);
    }
    room.listeners.add(listener);
    await room.subscribed;
  }

  remove(roomUuid: string, listener: FrameListener): void {
    const room = this.rooms.get(roomUuid);
    if (!room) return;
    room.listeners.delete(listener);
    if (room.listeners.size === 0) {
      this.rooms.delete(roomUuid);
      unschedule(room);
      this.subscriber.unsubscribe(feedChannel(roomUuid)).catch((error: unknown) => this.logger.warn({ err: error }, 'unsubscribe failed'));
    }
  }

  get roomCount(): number {
    return this.rooms.size;
  }

  private dispatch(channel: string, raw: string): void {
    if (channel === this.resyncChannel) {
      this.resyncAll('Redis lost the live rooms');
      return;
    }
    const roomUuid = channel.slice('feed:room:'.length);
    const room = this.rooms.get(roomUuid);
    if (!room) return;
    const decoded = decodeFeedFrame(raw);
    if (!decoded) {
      this.logger.warn({ channel }, 'malformed feed frame dropped');
      return;
    }
    // Serialized once by its publisher, framed once here, handed out with the room's other frames that came meanwhile.
    room.pending.push({ ...decoded, wire: textFrame(decoded.json) });
    if (room.immediate || room.timer) return;
    const wait = room.lastFlush + this.fanOutIntervalMs - performance.now();
    if (wait > 0) room.timer = setTimeout(() => this.flush(roomUuid, room), wait);
    else room.immediate = setImmediate(() => this.flush(roomUuid, room));
  }

  /** The room's pending frames to every listener, as one batch. */
  private flush(roomUuid: string, room: RoomListeners): void {
    unschedule(room);
    room.lastFlush = performance.now();
    const frames = room.pending;
    if (frames.length === 0 || this.rooms.get(roomUuid) !== room) return;
    room.pending = [];
    const batch = roomBatch(frames);
    for (const listener of room.listeners) listener.deliver(batch);
    // Once per frame, after the fan-out: sockets reached and time since the room service sent it.
    for (const frame of frames) feedMetrics.delivered(room.listeners.size, frameSentAt(frame.json));
  }
}

function unschedule(room: RoomListeners): void {
  if (room.timer) clearTimeout(room.timer);
  if (room.immediate) clearImmediate(room.immediate);
  room.timer = undefined;
  room.immediate = undefined;
}

function roomBatch(frames: RoomFrame[]): RoomBatch {
  let uniform = true;
  let firstVersion = 0;
  let lastVersion = 0;
  for (const frame of frames) {
    if (frame.kind === 'e') continue;
    if (frame.kind !== 's' || (lastVersion !== 0 && frame.version !== lastVersion + 1)) uniform = false;
    if (frame.kind === 's') {
      if (firstVersion === 0) firstVersion = frame.version;
      lastVersion = frame.version;
    }
  }
  const wire = frames.length === 1 ? frames[0]!.wire : Buffer.concat(frames.map((f) => f.wire));
  return { frames, wire, uniform, firstVersion, lastVersion };
}
