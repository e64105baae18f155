// The image's HEALTHCHECK: a service answers its gRPC health check (SERVING),
// the BFF answers GET /healthz. Exits 0 when healthy, 1 otherwise.
import { request } from 'node:http';
import { createRequire } from 'node:module';

const timeout = setTimeout(() => process.exit(1), 4_000);
const done = (healthy) => {
  clearTimeout(timeout);
  process.exit(healthy ? 0 : 1);
};

if (process.env.SPINROOM_WORKSPACE === 'bff') {
  request({ host: '127.0.0.1', port: Number(process.env.PORT ?? 8080), path: '/healthz', timeout: 3_000 }, (res) =>
    done(res.statusCode === 200),
  )
    .on('error', () => done(false))
    .end();
} else {
  const grpc = createRequire(import.meta.url)('@grpc/grpc-js');
  const client = new grpc.Client(`127.0.0.1:${process.env.GRPC_PORT ?? '50051'}`, grpc.credentials.createInsecure());
  // grpc.health.v1.Health/Check for the whole server (empty request); the
  // answer's field 1 (status) is 1 for SERVING: bytes 08 01.
  client.makeUnaryRequest(
    '/grpc.health.v1.Health/Check',
    () => Buffer.alloc(0),
    (bytes) => bytes,
    {},
    (error, response) => {
      done(!error && response.length >= 2 && response[0] === 0x08 && response[1] === 0x01);
    },
  );
}
