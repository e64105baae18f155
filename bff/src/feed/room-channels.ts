import { decodeFeedFrame, feedChannel, feedMetrics, frameSentAt, type FeedFrame, type Logger, type Redis } from '@spinroom/platform/core';
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
 */
export class RoomChannels {
  private readonly rooms = new Map<string, { listeners: Set<FrameListener>; subscribed: Promise<unknown> }>();

  constructor(
    private readonly subscriber: Redis,
    private readonly logger: Logger,
  ) {
    subscriber.on('message', (channel: string, raw: string) => this.dispatch(channel, raw));
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
