import type { Server } from 'node:http';
import type { RoomServiceClient } from '@spinroom/contracts/room/v1/room_service';
import {
  createRedis,
  parseSessionsEnded,
  SESSIONS_ENDED_CHANNEL,
  type Logger,
  type PromiseClient,
  type ServiceTokenSource,
  type SessionRevocations,
  type TokenVerifier,
} from '@spinroom/platform/core';
import { BlockedSenders } from './blocked-senders.js';

export { blockedByFromSocial } from './blocked-senders.js';
import { DEFAULT_FEED_LIMITS, FeedServer, type FeedLimits } from './feed-server.js';
import { grpcLiveRoomGateway } from './grpc-gateway.js';
import { RoomChannels } from './room-channels.js';

export interface RunningFeed {
  feed: FeedServer;
  close(): Promise<void>;
}

/** The room feed at `/primus` on `server`: WebSockets in, room-service calls out, Redis frames fanned out. */
export function startFeed(options: {
  server: Server;
  redisUrl: string;
  rooms: PromiseClient<RoomServiceClient>;
  serviceToken: ServiceTokenSource;
  verifier: () => TokenVerifier | undefined;
  /** The verifier's ended sessions: told at once of each end announced, as the sockets it covers close. */
  sessions: SessionRevocations;
  allowedOrigins: string[];
  logger: Logger;
  limits?: Partial<FeedLimits>;
  /** Whom a user blocked (the social service): their room chat messages are not sent to that user live. */
  blockedBy?: (userUuid: string) => Promise<string[]>;
}): RunningFeed {
  const subscriber = createRedis(options.redisUrl);
  const feed = new FeedServer({
    verifier: options.verifier,
    gateway: grpcLiveRoomGateway(options.rooms, options.serviceToken),
    channels: new RoomChannels(subscriber, options.logger, options.limits?.fanOutIntervalMs ?? DEFAULT_FEED_LIMITS.fanOutIntervalMs),
    logger: options.logger,
    allowedOrigins: options.allowedOrigins,
    limits: options.limits,
    hiddenSenders: options.blockedBy ? new BlockedSenders(options.blockedBy, options.logger) : undefined,
  });
  feed.attach(options.server);
  // A user's sessions ended (logout, password, ban...): their open sockets close now, not at their next action.
  subscriber.on('message', (channel: string, raw: string) => {
    if (channel !== SESSIONS_ENDED_CHANNEL) return;
    const ended = parseSessionsEnded(raw);
    if (!ended) return;
    options.sessions.learn(ended);
    feed.endSessions(ended);
  });
  subscriber
    .subscribe(SESSIONS_ENDED_CHANNEL)
    .catch((error: unknown) => options.logger.warn({ err: error }, 'subscribe to ended sessions failed'));
  return {
    feed,
    async close() {
      await feed.close();
      subscriber.disconnect();
    },
  };
}
