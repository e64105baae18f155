import type { Server } from 'node:http';
import type { RoomServiceClient } from '@spinroom/contracts/room/v1/room_service';
import { createRedis, type Logger, type PromiseClient, type ServiceTokenSource, type TokenVerifier } from '@spinroom/platform/core';
import { FeedServer, type FeedLimits } from './feed-server.js';
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
  allowedOrigins: string[];
  logger: Logger;
  limits?: Partial<FeedLimits>;
}): RunningFeed {
  const subscriber = createRedis(options.redisUrl);
  const feed = new FeedServer({
    verifier: options.verifier,
    gateway: grpcLiveRoomGateway(options.rooms, options.serviceToken),
    channels: new RoomChannels(subscriber, options.logger),
    logger: options.logger,
    allowedOrigins: options.allowedOrigins,
    limits: options.limits,
  });
  feed.attach(options.server);
  return {
    feed,
    async close() {
      await feed.close();
      subscriber.disconnect();
    },
  };
}
