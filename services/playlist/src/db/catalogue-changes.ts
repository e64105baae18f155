import type { MikroORM } from '@mikro-orm/postgresql';
import { CATALOGUE_GENERATION_KEY, type Logger, type Redis } from '@spinroom/platform/core';
import pg from 'pg';

/** Wait before listening again after the connection was lost. */
const RECONNECT_MS = 1000;

/**
 * Advances the catalogue's generation in Redis (CATALOGUE_GENERATION_KEY) for
 * each committed change to a song search can return: PostgreSQL notifies
 * `song_catalogue` at commit (migration catalogue_changes), on a connection
 * of its own that listens there. It also advances it each time it starts
 * listening, since a change made while nobody listened was not heard. Every
 * replica listens and advances it: a change counts once or more, never none.
 * Resolves once it listens; `stop()` ends it.
 */
export async function advanceGenerationOnChanges(orm: MikroORM, redis: Redis, logger: Logger): Promise<{ stop(): Promise<void> }> {
  const url = orm.config.get('clientUrl');
  const { host, port, user, password, database } = orm.em.getConnection().getConnectionOptions();
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  // Tried again until Redis takes it: readers reuse nothing while they cannot read the generation, but would reuse
  // answers older than the change once Redis answers again with the generation not advanced.
  const advance = (): Promise<void> =>
    redis.incr(CATALOGUE_GENERATION_KEY).then(
      () => undefined,
      (error: unknown) => {
        logger.warn({ err: error }, 'the catalogue generation could not be advanced; trying again');
        if (!stopped) setTimeout(() => void advance(), RECONNECT_MS).unref();
      },
    );
  // Listening again until it listens (PostgreSQL may be down a while).
  const again = () => {
    if (!stopped) retry = setTimeout(() => void listen().catch(again), RECONNECT_MS);
  };
  const listen = async (): Promise<void> => {
    const c = new pg.Client(url ? { connectionString: url } : { host, port, user, password, database });
    c.on('notification', () => void advance());
    c.on('error', (error) => {
      logger.warn({ err: error }, 'catalogue change listener lost its connection; listening again');
      c.end().catch(() => {});
      if (client === c) client = undefined;
      again();
    });
    try {
      await c.connect();
      await c.query('listen "song_catalogue"');
    } catch (error) {
      c.end().catch(() => {});
      throw error;
    }
    if (stopped) {
      await c.end();
      return;
    }
    client = c;
    await advance();
  };
  await listen();
  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      await client?.end();
    },
  };
}
