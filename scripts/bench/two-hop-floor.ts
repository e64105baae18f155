// The benchmark's second reference: the floor of the platform's shape. The same
// two hops as a REST read (HTTP -> gRPC -> PostgreSQL), with nothing else: a
// bare fastify front calls GetSession on a bare grpc-js server that reads the
// session's three columns with `pg`. No token, no telemetry, no Express, no ORM.
// What this row cannot reach, no BFF -> service path on the same machine can:
// it separates the cost of our code from the cost of the hop itself.
//
//   DATABASE_URL=... GRPC_PORT=50152 node --import tsx scripts/bench/two-hop-floor.ts service
//   GRPC_PORT=50152 PORT=8182 node --import tsx scripts/bench/two-hop-floor.ts front
//   GET /session/<uuid> -> {userUuid, kind, roles}
import { credentials, Metadata, Server, ServerCredentials, status, type handleUnaryCall } from '@grpc/grpc-js';
import {
  UserKind,
  UserServiceClient,
  UserServiceService,
  type GetSessionRequest,
  type GetSessionResponse,
} from '@spinroom/contracts/user/v1/user_service';
import Fastify from 'fastify';
import pg from 'pg';

const role = process.argv[2];
const grpcAddress = `127.0.0.1:${Number(process.env.GRPC_PORT ?? 50152)}`;
// As the platform's own gRPC servers and clients are configured (packages/platform/src/grpc).
const grpcOptions = { 'grpc.keepalive_time_ms': 30_000, 'grpc.enable_channelz': 0 };
const KINDS: Record<string, UserKind> = { user: UserKind.USER_KIND_USER, guest: UserKind.USER_KIND_GUEST, bot: UserKind.USER_KIND_BOT };

if (role === 'service') {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is required');
  // The same pool size as the user service's (packages/platform/src/db/orm.ts) and the baseline's.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 20 });
  const server = new Server(grpcOptions);
  const getSession: handleUnaryCall<GetSessionRequest, GetSessionResponse> = (call, callback) => {
    const uuid = String(call.metadata.get('x-user-uuid')[0] ?? '');
    pool.query('select uuid, kind, roles from user_account where uuid = $1', [uuid]).then(
      ({ rows: [row] }) =>
        row
          ? callback(null, { userUuid: row.uuid, kind: KINDS[row.kind] ?? UserKind.USER_KIND_USER, roles: row.roles })
          : callback({ code: status.NOT_FOUND, details: 'no such user' }),
      (error: Error) => callback({ code: status.INTERNAL, details: error.message }),
    );
  };
  // The floor serves GetSession alone; grpc-js answers UNIMPLEMENTED for the contract's other methods.
  server.addService(UserServiceService, { getSession });
  await new Promise<void>((resolve, reject) =>
    server.bindAsync(grpcAddress, ServerCredentials.createInsecure(), (error) => (error ? reject(error) : resolve())),
  );
  const close = () => server.tryShutdown(() => void pool.end().finally(() => process.exit(0)));
  process.once('SIGTERM', close);
  process.once('SIGINT', close);
} else if (role === 'front') {
  const client = new UserServiceClient(grpcAddress, credentials.createInsecure(), grpcOptions);
  const app = Fastify({ logger: false });
  app.get<{ Params: { uuid: string } }>('/session/:uuid', async (request) => {
    const metadata = new Metadata();
    metadata.set('x-user-uuid', request.params.uuid);
    const session = await new Promise<GetSessionResponse>((resolve, reject) =>
      client.getSession({}, metadata, { deadline: new Date(Date.now() + 5_000) }, (error, response) =>
        error ? reject(error) : resolve(response),
      ),
    );
    return { userUuid: session.userUuid, kind: session.kind === UserKind.USER_KIND_GUEST ? 'guest' : 'user', roles: session.roles };
  });
  app.get('/healthz', async () => ({ status: 'ok' }));
  await app.listen({ port: Number(process.env.PORT ?? 8182), host: '127.0.0.1' });
  const close = () => void app.close().finally(() => process.exit(0));
  process.once('SIGTERM', close);
  process.once('SIGINT', close);
} else {
  throw new Error('usage: two-hop-floor.ts service|front');
}
