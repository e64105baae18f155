// The benchmark's baseline: a bare fastify server that reads one user row
// straight from PostgreSQL with `pg` (one hop, no token, no gRPC, no ORM, no
// telemetry). Started by scripts/bench.ts as its own process.
//
//   DATABASE_URL=postgres://... PORT=8181 node --import tsx scripts/bench/baseline-server.ts
//   GET /user/<uuid>  -> the user_account row as JSON (without the password hash)
import Fastify from 'fastify';
import pg from 'pg';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL is required');
const port = Number(process.env.PORT ?? 8181);
// The same pool size as the user service's MikroORM pool (packages/platform/src/db/orm.ts).
const pool = new pg.Pool({ connectionString: databaseUrl, max: Number(process.env.PG_POOL_MAX ?? 20) });

const app = Fastify({ logger: false });
app.get<{ Params: { uuid: string } }>('/user/:uuid', async (request, reply) => {
  const { rows } = await pool.query('select * from user_account where uuid = $1', [request.params.uuid]);
  const row = rows[0];
  if (!row) return reply.code(404).send({ statusCode: 404, message: 'Not Found', error: 'Not Found' });
  delete row.password_hash;
  return row;
});
app.get('/healthz', async () => ({ status: 'ok' }));

await app.listen({ port, host: '127.0.0.1' });

const close = () => {
  void app
    .close()
    .then(() => pool.end())
    .finally(() => process.exit(0));
};
process.once('SIGTERM', close);
process.once('SIGINT', close);
