import {
  closeOnSignals,
  createLogger,
  createRedis,
  GrpcHealthChecker,
  loadConfigOrExit,
  peerAddressVariable,
  PublicKeyCache,
  ServiceTokenSource,
  SERVICE_NAMES,
  SessionRevocations,
  type ServiceName,
  watchCatalogueGeneration,
} from '@spinroom/platform/core';
import { createApp } from './app.js';
import { bffConfig } from './config.js';
import { blockedByFromSocial, startFeed } from './feed/index.js';
import { bffLimits } from './http/limits.js';
import { reduceMemoryWhenIdle } from './idle-memory.js';
import { SearchAnswers } from './routes/playlist/search-answers.js';
import { openUpstreams } from './upstreams.js';

const config = loadConfigOrExit(bffConfig);
const logger = createLogger('bff', { level: config.LOG_LEVEL });
const addresses = Object.fromEntries(SERVICE_NAMES.map((name) => [name, config[peerAddressVariable(name)]])) as Record<ServiceName, string>;
const upstreams = openUpstreams(addresses);
const { user, room: rooms } = upstreams;
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

const catalogueGeneration = watchCatalogueGeneration(limitsRedis, { everyMs: config.SEARCH_GENERATION_POLL_MS });

const app = createApp({
  config,
  upstreams,
  verifier: () => keys.verifier,
  // Ready when every upstream service answers SERVING.
  ready: () => health.allServing(Object.values(addresses)),
  limits: bffLimits(limitsRedis, config),
  searchAnswers: new SearchAnswers({
    generation: catalogueGeneration.current,
    maxAgeMs: config.SEARCH_ANSWERS_MAX_AGE_MS,
    maxBytes: config.SEARCH_ANSWERS_MAX_MB * 2 ** 20,
  }),
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
  blockedBy: blockedByFromSocial(upstreams.social.social, serviceToken),
});

// V8 keeps its start-up peak in an idle process; give it back when idle (idle-memory.ts).
const stopReducingMemory = reduceMemoryWhenIdle({ logger });

closeOnSignals(logger, async () => {
  stopReducingMemory();
  keys.stop();
  catalogueGeneration.stop();
  await feed.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  upstreams.close();
  health.close();
  limitsRedis.disconnect();
});
