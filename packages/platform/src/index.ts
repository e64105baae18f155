// Everything a service needs: the lean core (see core.ts), plus the database,
// Kafka and the gRPC server bootstrap.
export * from './core.js';
export * from './db/crud-query.js';
export * from './db/orm.js';
export * from './grpc/server.js';
export * from './grpc/token-writer.js';
export * from './kafka/client.js';
export * from './kafka/consumer.js';
export * from './kafka/outbox.js';
export * from './kit/service.js';
