import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException, type MikroORM } from '@mikro-orm/postgresql';
import { addToOutbox, type OutboxEntry } from '@spinroom/platform';
import { BotTakenError, type BotProfile, type BotStore } from '../domain/sessions/bots.js';
import type { User } from '../domain/user.js';
import { UserBotEntity } from './sessions-bot-entity.js';
import { UserEntity } from './user-entity.js';

/** Bots in PostgreSQL: the bot's `user_account` row and its `user_bot` link to the owner. */
export class PgBotStore implements BotStore {
  constructor(
    private readonly orm: MikroORM,
    /** Called after a commit that staged events, so the relay sends them now. */
    private readonly onEventsCommitted: () => void = () => undefined,
  ) {}

  async findBotOf(ownerUuid: string): Promise<User | null> {
    const em = this.orm.em.fork();
    const link = await em.findOne(UserBotEntity, { ownerUuid });
    return link ? em.findOne(UserEntity, { uuid: link.botUuid }) : null;
  }

  async createBot(ownerUuid: string, profile: BotProfile, announce: (bot: User) => OutboxEntry): Promise<User> {
    const now = new Date();
    try {
      const bot = await this.orm.em.fork().transactional(async (em) => {
        const created = em.create(UserEntity, {
          uuid: randomUUID(),
          kind: 'bot',
          email: null,
          passwordHash: null,
          roles: ['bot'],
          capabilities: [],
          badges: [],
          ...profile,
          displayPronouns: false,
          createdAt: now,
          updatedAt: now,
        });
        await em.flush(); // the account first: the link and the event name it
        em.create(UserBotEntity, { ownerUuid, botUuid: created.uuid, createdAt: now });
        await em.flush();
        addToOutbox(em, announce(created));
        return created;
      });
      this.onEventsCommitted();
      return bot;
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw new BotTakenError();
      throw error;
    }
  }
}
