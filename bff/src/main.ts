import { ChatServiceClient } from '@spinroom/contracts/chat/v1/chat_service';
import { RoomServiceClient } from '@spinroom/contracts/room/v1/room_service';
import { PlaylistServiceClient } from '@spinroom/contracts/playlist/v1/playlist_service';
import { UploadServiceClient } from '@spinroom/contracts/upload/v1/upload_service';
import {
  closeOnSignals,
  createGrpcClient,
  createLogger,
  createRedis,
  GrpcHealthChecker,
  loadConfigOrExit,
  PublicKeyCache,
  ServiceTokenSource,
  SessionRevocations,
} from '@spinroom/platform/core';
import { createApp } from './app.js';
import { bffConfig } from './config.js';
import { startFeed } from './feed/index.js';
import { bffLimits } from './http/limits.js';
import { closeUserClients, createUserClients } from './routes/user/index.js';
import { closePointsClients, createPointsClients } from './routes/points/index.js';
import { createPaymentClient } from './routes/payment/index.js';

const config = loadConfigOrExit(bffConfig);
const logger = createLogger('bff', { level: config.LOG_LEVEL });
const user = createUserClients(config.USER_ADDR);
const playlists = createGrpcClient(PlaylistServiceClient, config.PLAYLIST_ADDR);
const uploads = createGrpcClient(UploadServiceClient, config.UPLOAD_ADDR);
const chat = createGrpcClient(ChatServiceClient, config.CHAT_ADDR);
const rooms = createGrpcClient(RoomServiceClient, config.ROOM_ADDR);
const points = createPointsClients(config.POINTS_ADDR);
const payment = createPaymentClient(config.PAYMENT_ADDR);
const health = new GrpcHealthChecker();
const limitsRedis = createRedis(config.REDIS_URL);
// Ended sessions are read from the same Redis (sessions.ts): every token check refuses them.
const sessions = new SessionRevocations(limitsRedis);
const keys = new PublicKeyCache({
  fetch: () => user.accounts.getPublicKey({}, { deadlineMs: 2_000 }),
  issuer: config.JWT_ISSUER,
  logger,
  sessions,
});
keys.start();

const app = createApp({
  config,
  upstreams: { user, playlists, uploads, rooms, chat, points, payment },
  verifier: () => keys.verifier,
  // Ready when every upstream service answers SERVING.
  ready: () =>
    health.allServing([
      config.USER_ADDR,
      config.PLAYLIST_ADDR,
      config.UPLOAD_ADDR,
      config.ROOM_ADDR,
      config.CHAT_ADDR,
      config.POINTS_ADDR,
      config.PAYMENT_ADDR,
    ]),
  limits: bffLimits(limitsRedis, config),
});
const server = app.listen(config.PORT, config.HTTP_HOST, () => {
  logger.info({ url: `http://${config.HTTP_HOST}:${config.PORT}` }, 'BFF listening');
});
server.keepAliveTimeout = 65_000;
const serviceToken = new ServiceTokenSource(() =>
  user.accounts.issueServiceToken({ serviceName: 'bff', clientSecret: config.SERVICE_CLIENT_SECRET }, { deadlineMs: 3_000 }),
);
const feed = startFeed({
  server,
  redisUrl: config.REDIS_URL,
  rooms,
  serviceToken,
  verifier: () => keys.verifier,
  sessions,
  allowedOrigins: config.CORS_ORIGINS,
  logger,
});

closeOnSignals(logger, async () => {
  keys.stop();
  await feed.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  closeUserClients(user);
  playlists.close();
  uploads.close();
  chat.close();
  rooms.close();
  closePointsClients(points);
  payment.close();
  health.close();
  limitsRedis.disconnect();
});
