// The lean part of the platform: what a process needs that owns no database
// and consumes no Kafka (the BFF). Importing it leaves MikroORM, kafkajs and
// the gRPC server bootstrap unloaded, which keeps the BFF small in memory.
export * from './auth.js';
export * from './catalogue-generation.js';
export * from './vocabulary/index.js';
export * from './config.js';
export * from './context.js';
export * from './errors.js';
export * from './feed.js';
export * from './limits.js';
export * from './logging.js';
export * from './redis.js';
export * from './grpc/client.js';
export * from './grpc/status.js';
export * from './grpc/health.js';
export * from './lifecycle.js';
export * from './public-key-cache.js';
export * from './service-token.js';
export * from './sessions.js';
export * from './telemetry/metrics.js';
export * from './telemetry/http-route.js';
export * from './kit/service-list.js';
export * from './media/uploads.js';
