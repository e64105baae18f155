import { Migrator } from '@mikro-orm/migrations';
import { MikroORM, type EntitySchema, type MigrationObject } from '@mikro-orm/postgresql';
import pg from 'pg';

export { MikroORM };
export type { EntityManager } from '@mikro-orm/postgresql';

export interface OrmOptions {
  /** postgres://user:pass@host:port/<this service's own database> */
  databaseUrl: string;
  // biome-ignore lint/suspicious/noExplicitAny: schemas of different entities in one list; MikroORM's own signatures take EntitySchema<any, any>
  entities: EntitySchema<any, any>[];
  /** Checked-in migrations of the service, in order. */
  migrations: MigrationObject[];
  poolMax?: number;
  /** Where MikroORM's own messages (migrations run, slow queries) go. */
  log?: (message: string) => void;
}

/**
 * One database per service. Migrations are listed explicitly (no file globbing)
 * so they run the same from source, from a bundle or from a test.
 */
export async function createOrm(options: OrmOptions): Promise<MikroORM> {
  return MikroORM.init({
    clientUrl: options.databaseUrl,
    entities: options.entities,
    extensions: [Migrator],
    migrations: { migrationsList: options.migrations, transactional: true, allOrNothing: true, snapshot: false },
    pool: { min: 0, max: options.poolMax ?? 20 },
    // Entities are defined with defineEntity, so nothing needs reflecting or caching.
    metadataCache: { enabled: false },
    debug: false,
    logger: options.log ?? (() => undefined),
  });
}

/** Applies pending migrations; returns the names it ran. */
export async function migrate(orm: MikroORM): Promise<string[]> {
  const ran = await orm.migrator.up();
  return ran.map((m) => m.name);
}

/** Creates the service's database when missing (local and test infrastructure start with only `postgres`). */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Unsupported database name: ${name}`);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE "${name}"`).catch((error: { code?: string }) => {
        if (error.code !== '42P04') throw error; // created meanwhile by a concurrent start
      });
    }
  } finally {
    await client.end();
  }
}

/** Drops a database (tests clean up the databases they made). */
export async function dropDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
