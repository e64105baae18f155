import { type InferEntity, UniqueConstraintViolationException, type MikroORM } from '@mikro-orm/postgresql';
import { DiscordTakenError, type DiscordAccountStore, type DiscordUser } from '../domain/providers/discord.js';
import type { LinkedProvider, ProviderClient, ProviderLinkStore, StoredLink } from '../domain/providers/ports.js';
import { addToOutbox } from '@spinroom/platform';
import { userProfileUpdated } from '../events/user-events.js';
import { ProviderLinkEntity } from './providers-entities.js';
import { UserEntity } from './user-entity.js';

function toStoredLink(row: InferEntity<typeof ProviderLinkEntity>): StoredLink {
  return {
    userUuid: row.userUuid,
    provider: row.provider,
    client: row.client,
    accessToken: row.accessToken ?? null,
    accessExpiresAt: row.accessExpiresAt ?? null,
    refreshToken: row.refreshToken ?? null,
    scope: row.scope ?? null,
  };
}

/** Provider links in PostgreSQL (ciphertexts only: this store never sees a plain token). */
export class PgProviderLinkStore implements ProviderLinkStore {
  constructor(private readonly orm: MikroORM) {}

  async find(userUuid: string, provider: LinkedProvider, client: ProviderClient): Promise<StoredLink | null> {
    const row = await this.orm.em.fork().findOne(ProviderLinkEntity, { userUuid, provider, client });
    return row ? toStoredLink(row) : null;
  }

  async list(userUuid: string): Promise<Array<StoredLink & { updatedAt: Date }>> {
    const rows = await this.orm.em.fork().find(ProviderLinkEntity, { userUuid }, { orderBy: { provider: 'asc', client: 'asc' } });
    return rows.map((row) => ({ ...toStoredLink(row), updatedAt: row.updatedAt }));
  }

  async save(link: StoredLink): Promise<void> {
    await this.orm.em.fork().execute(
      `insert into "provider_link" ("user_uuid", "provider", "client", "access_token", "access_expires_at", "refresh_token", "scope", "created_at", "updated_at")
       values (?, ?, ?, ?, ?, ?, ?, now(), now())
       on conflict ("user_uuid", "provider", "client") do update set
         "access_token" = excluded."access_token", "access_expires_at" = excluded."access_expires_at",
         "refresh_token" = excluded."refresh_token", "scope" = excluded."scope", "updated_at" = now()`,
      [link.userUuid, link.provider, link.client, link.accessToken, link.accessExpiresAt, link.refreshToken, link.scope],
    );
  }

  async delete(userUuid: string, provider: LinkedProvider, client: ProviderClient): Promise<boolean> {
    return (await this.orm.em.fork().nativeDelete(ProviderLinkEntity, { userUuid, provider, client })) > 0;
  }
}

/** The `discord_id`, `discord` and `discord_nickname` columns of `user_account`. */
export class PgDiscordAccountStore implements DiscordAccountStore {
  constructor(private readonly orm: MikroORM) {}

  async findUserUuidByDiscordId(discordId: string): Promise<string | null> {
    const [row] = await this.orm.em
      .fork()
      .execute<{ uuid: string }[]>(`select "uuid" from "user_account" where "discord_id" = ?`, [discordId]);
    return row?.uuid ?? null;
  }

  /** Links the account; the profile it changes (discord, discordNickname) is announced in the same transaction (`user.profile-updated`). */
  async link(userUuid: string, discord: DiscordUser): Promise<void> {
    try {
      await this.orm.em.fork().transactional(async (em) => {
        await em.execute(
          `update "user_account" set "discord_id" = ?, "discord" = ?, "discord_nickname" = ?, "updated_at" = now() where "uuid" = ?`,
          [discord.id, discord.username.slice(0, 255), discord.globalName?.slice(0, 255) ?? null, userUuid],
        );
        const user = await em.findOne(UserEntity, { uuid: userUuid });
        if (user) addToOutbox(em, userProfileUpdated(user));
      });
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw new DiscordTakenError();
      throw error;
    }
  }
}
