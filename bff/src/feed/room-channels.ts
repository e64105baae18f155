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

/** Whoever holds sockets of a room and wants its frames. */
export interface FrameListener {
  deliver(frame: RoomFrame): void;
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
 */
export class RoomChannels {
  private readonly rooms = new Map<string, { listeners: Set<FrameListener>; subscribed: Promise<unknown> }>();
  private readonly resyncChannel: string;

  constructor(
    private readonly subscriber: Redis,
    private readonly logger: Logger,
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
      const frame: RoomFrame = { kind: 'r', version: 0, userUuid: '', json, wire: textFrame(json) };
      for (const listener of [...room.listeners]) listener.deliver(frame);
    }
  }

  /** Resolves once frames of the room reach `listener` (so nothing published after is missed). */
  async add(roomUuid: string, listener: FrameListener): Promise<void> {
    let room = this.rooms.get(roomUuid);
    if (!room) {
      room = { listeners: new Set(), subscribed: this.subscriber.subscribe(feedChannel(roomUuid)) };
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
    const room = this.rooms.get(channel.slice('feed:room:'.length));
    if (!room) return;
    const decoded = decodeFeedFrame(raw);
    if (!decoded) {
      this.logger.warn({ channel }, 'malformed feed frame dropped');
      return;
    }
    // Serialized once by its publisher, framed once here: each socket is one write of the same buffer.
    const frame: RoomFrame = { ...decoded, wire: textFrame(decoded.json) };
    for (const listener of room.listeners) listener.deliver(frame);
    // Once per frame, after the fan-out: sockets reached and time since the room service sent it.
    feedMetrics.delivered(room.listeners.size, frameSentAt(frame.json));
  }
}
