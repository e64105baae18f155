import { encodeFeedFrame, feedChannel, roomMessageJson, type Logger, type Redis } from '@spinroom/platform';
import type { MessageView } from '../domain/chat-message.js';
import type { FeedMessageName, FeedPort } from '../domain/ports.js';

/**
 * Pushes chat messages to the room feed: a `c` frame (stateless, to everyone
 * in the room but those who blocked its sender, whom the frame names) on the
 * room's Redis channel, which every BFF replica forwards to its sockets as
 * `{name, params: {message}}`.
 */
export class RedisChatFeed implements FeedPort {
  constructor(
    private readonly redis: Redis,
    private readonly logger: Logger,
  ) {}

  async publish(roomUuid: string, name: FeedMessageName, message: MessageView): Promise<void> {
    const json = roomMessageJson({ roomUuid, sentAt: Date.now(), message: { name, params: { message } } });
    try {
      await this.redis.publish(feedChannel(roomUuid), encodeFeedFrame({ kind: 'c', version: 0, userUuid: message.sender, json }));
    } catch (error) {
      // The message is stored; clients polling the chat API still get it.
      this.logger.warn({ err: error, roomUuid, name }, 'chat message not pushed to the room feed');
    }
  }
}
