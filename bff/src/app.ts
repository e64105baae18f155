import { existsSync } from 'node:fs';
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { AppError, restMetrics, type TokenVerifier } from '@spinroom/platform/core';
import cors from 'cors';
import express from 'express';
import helmet from 'helmet';
import { DEFAULT_CHAT_APP_ID, DEFAULT_UPLOAD_MAX_BYTES, type BffConfig } from './config.js';
import { errorHandler, notFoundHandler } from './http/errors.js';
import { documentTextRule } from './http/validation.js';
import type { BffLimits } from './http/limits.js';
import type { RouteDeps } from './http/route.js';
import { chatRoutes } from './routes/chat/index.js';
import { chatErrorHandler, chatNotFoundHandler } from './routes/chat/cometchat.js';
import { userServiceRoutes } from './routes/user/index.js';
import { catalogueRoutes } from './routes/playlist/catalogue.js';
import { crateRoutes } from './routes/playlist/crates.js';
import { roomChatRoutes } from './routes/room/cometchat.js';
import { recentSongRoutes } from './routes/playlist/recent-songs.js';
import { crateTransferRoutes } from './routes/playlist/crate-transfers.js';
import { playlistBodyParsers, songDataRoutes } from './routes/playlist/song-data.js';
import type { SearchAnswers } from './routes/playlist/search-answers.js';
import { searchRoutes, songRoutes } from './routes/playlist/songs.js';
import { uploadBodyParsers, uploadServiceRoutes } from './routes/upload/index.js';
import { roomServiceRoutes } from './routes/room/index.js';
import { pointsServiceRoutes } from './routes/points/index.js';
import { paymentBodyParsers, paymentServiceRoutes } from './routes/payment/index.js';
import { socialServiceRoutes } from './routes/social/index.js';
import { notificationRoutes } from './routes/social/notifications.js';
import { auditServiceRoutes } from './routes/audit/index.js';
import { PLAYBACK_CSP } from './http/playback-csp.js';
import type { Upstreams } from './upstreams.js';

/**
 * The services' clients (upstreams.ts). The chat, points and payment services
 * may be left out (the edge tests): their paths then answer 503.
 */
export type AppUpstreams = Pick<Upstreams, 'user' | 'playlist' | 'upload' | 'room'> & Partial<Upstreams>;

/**
 * The backend-for-frontend: owns no data; validates, authenticates and turns
 * each REST path into gRPC calls. `verifier` is unset until the user service's
 * public key is known (callers then get a 503).
 */
export function createApp(options: {
  config: Pick<BffConfig, 'CORS_ORIGINS' | 'JSON_BODY_LIMIT' | 'WEB_DIR'> & Partial<Pick<BffConfig, 'UPLOAD_MAX_BYTES' | 'CHAT_APP_ID'>>;
  upstreams: AppUpstreams;
  verifier: () => TokenVerifier | undefined;
  ready: () => Promise<boolean>;
  /** The limits per client address (http/limits.ts). */
  limits: BffLimits;
  /** The catalogue search's answers kept; each search asks the playlist service when left out. */
  searchAnswers?: SearchAnswers;
}): express.Express {
  const { config, upstreams } = options;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.set('query parser', 'extended');
  // API answers are per caller and never cached: hashing every body into an
  // ETag took 2% of a read's CPU for nothing. (The web client's static files keep theirs.)
  app.set('etag', false);
  app.use(restMetrics());
  app.use(
    helmet({
      // MusicKit's sign-in (linking Apple Music) is a window at Apple that posts the token back to its opener:
      // helmet's default same-origin would cut the two apart.
      crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
      contentSecurityPolicy: {
        directives: {
          // The web client plays HLS through Media Source Extensions (blob: media URLs)
          // and shows artwork from the music providers' image hosts; its players load
          // from the providers' own addresses (http/playback-csp.ts).
          'media-src': ["'self'", 'blob:', ...PLAYBACK_CSP['media-src']],
          'img-src': ["'self'", 'data:', 'https:'],
          'connect-src': ["'self'", ...PLAYBACK_CSP['connect-src']],
          'script-src': ["'self'", ...PLAYBACK_CSP['script-src']],
          'frame-src': ["'self'", ...PLAYBACK_CSP['frame-src']],
        },
      },
    }),
  );
  app.use(cors({ origin: config.CORS_ORIGINS.length > 0 ? config.CORS_ORIGINS : false }));
  // Upload paths read their bodies themselves (multipart streamed, a raw signed body), not through express.json.
  app.use(uploadBodyParsers);
  app.use(playlistBodyParsers);
  app.use(paymentBodyParsers);
  app.use(express.json({ limit: config.JSON_BODY_LIMIT }));

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const ready = options.verifier() !== undefined && (await options.ready().catch(() => false));
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready' });
  });

  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  const router = express.Router();
  const deps: RouteDeps = {
    router,
    registry,
    verifier: () =>
      options.verifier() ??
      (() => {
        throw new AppError(503, 'Sign-in is not available yet, please try again');
      })(),
  };
  searchRoutes(deps, upstreams.playlist, options.searchAnswers);
  userServiceRoutes(deps, upstreams.user, options.limits);
  crateTransferRoutes(deps, upstreams.playlist);
  crateRoutes(deps, upstreams.playlist);
  songDataRoutes(deps, upstreams.playlist);
  songRoutes(deps, upstreams.playlist);
  catalogueRoutes(deps, upstreams.playlist);
  recentSongRoutes(deps, upstreams.playlist, upstreams.room);
  roomServiceRoutes(deps, upstreams.room);
  uploadServiceRoutes(deps, upstreams.upload, { maxBytes: config.UPLOAD_MAX_BYTES ?? DEFAULT_UPLOAD_MAX_BYTES });
  pointsServiceRoutes(deps, upstreams.points);
  paymentServiceRoutes(deps, upstreams.payment);
  socialServiceRoutes(deps, upstreams.social);
  notificationRoutes(deps, upstreams.social?.notifications, upstreams.room);
  auditServiceRoutes(deps, upstreams.audit);
  const chatRouter = express.Router();
  if (upstreams.chat) roomChatRoutes(deps, upstreams.room, upstreams.user.accounts, upstreams.chat);
  if (upstreams.chat) chatRoutes({ ...deps, router: chatRouter, appId: config.CHAT_APP_ID ?? DEFAULT_CHAT_APP_ID }, upstreams.chat);

  // The document is made on its first request, not at start: its objects and
  // the generator's garbage are megabytes of every BFF's memory, for a path few call.
  let document: ReturnType<OpenApiGeneratorV31['generateDocument']> | undefined;
  const openApiDocument = () => {
    if (document) return document;
    document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
      openapi: '3.1.0',
      info: {
        title: 'Spinroom API',
        version: '0.1.0',
        description: 'REST paths served by the BFF. Errors are always {statusCode, message, error}.',
      },
    });
    documentTextRule(document);
    return document;
  };
  app.get('/api/openapi.json', (_req, res) => {
    res.json(openApiDocument());
  });
  app.use(router);
  app.use('/api', notFoundHandler);
  // /chat: the CometChat-compatible API, with CometChat's error shape.
  app.use(chatRouter);
  app.use(
    '/chat',
    upstreams.chat
      ? chatNotFoundHandler
      : (_req, _res, next) => next(new AppError(503, 'Chat is not available', { code: 'ERR_SERVICE_UNAVAILABLE' })),
  );
  app.use('/chat', chatErrorHandler);

  if (config.WEB_DIR && existsSync(config.WEB_DIR)) app.use(express.static(config.WEB_DIR));
  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
