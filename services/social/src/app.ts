import { SocialServiceService } from '@spinroom/contracts/social/v1/social_service';
import { UserServiceClient } from '@spinroom/contracts/user/v1/user_service';
import { defineService, startIdempotentConsumer } from '@spinroom/platform';
import { socialServiceConfig } from './config.js';
import { PgBlockStore } from './db/block-store.js';
import { PgContactStore } from './db/contact-store.js';
import { socialDatabase } from './db/database.js';
import { PgDeviceStore } from './db/device-store.js';
import { PgDjFanStore } from './db/dj-fan-store.js';
import { PgFriendStore } from './db/friend-store.js';
import { Blocks } from './domain/blocks.js';
import { ContactHasher, Contacts } from './domain/contacts.js';
import { Devices } from './domain/devices.js';
import { DjFans } from './domain/dj-fans.js';
import { Friends } from './domain/friends.js';
import { SOCIAL_EVENTS_TOPIC } from './events/social-events.js';
import { USER_EVENTS_TOPIC, userEventsHandler } from './events/user-events.js';
import { NOTIFICATION_TOPICS, startNotifications } from './notifications/module.js';
import { socialServiceHandlers } from './rpc/social-service.js';

/**
 * The gRPC server (spinroom.social.v1.SocialService): blocks, devices, DJ
 * fans, friends and address-book contacts; invitations, answers and follows
 * announced on `social-events` through the outbox; the user-events consumer
 * that keeps the directory contacts are matched against. `now` is the clock
 * (tests). The service kit opens and closes the rest (packages/platform/src/kit).
 */
export const socialService = defineService('social', {
  config: socialServiceConfig,
  peers: { user: UserServiceClient },
  database: socialDatabase,
  topics: [USER_EVENTS_TOPIC, SOCIAL_EVENTS_TOPIC, ...NOTIFICATION_TOPICS],
  async build({ config, logger, orm, kafka, relay, unary }, options: { now?: () => Date }) {
    if (!config.CONTACT_HASH_SECRET) logger.warn('CONTACT_HASH_SECRET is not set: the contact paths answer 503');
    const nudge = () => relay.nudge();
    const blockStore = new PgBlockStore(orm);
    const blocks = new Blocks(blockStore, options.now);
    const devices = new Devices(
      new PgDeviceStore(orm),
      { hosts: config.WEB_PUSH_ENDPOINT_HOSTS, plainHttpOrigins: config.WEB_PUSH_PLAIN_HTTP_ORIGINS },
      options.now,
    );
    const fans = new DjFans(new PgDjFanStore(orm, nudge), options.now);
    const friends = new Friends(new PgFriendStore(orm, nudge), blockStore, options.now);
    const hasher = config.CONTACT_HASH_SECRET ? new ContactHasher(config.CONTACT_HASH_SECRET) : undefined;
    const contacts = new Contacts(new PgContactStore(orm), hasher, options.now);
    const deadLetters = await kafka.producer();
    const consumer = await startIdempotentConsumer({
      kafka,
      orm,
      groupId: config.KAFKA_CONSUMER_GROUP,
      topics: [USER_EVENTS_TOPIC],
      handle: userEventsHandler(contacts, options.now),
      deadLetters,
      logger,
    });
    // Notifications: their gRPC service, consumers, fan-out and push channels (src/notifications).
    const notifying = await startNotifications({
      config,
      logger,
      orm,
      kafka,
      relay,
      unary,
      deadLetters,
      socialEventsTopic: SOCIAL_EVENTS_TOPIC,
      now: options.now,
    });
    return {
      services: [
        {
          name: 'spinroom.social.v1.SocialService',
          definition: SocialServiceService,
          implementation: socialServiceHandlers({ blocks, devices, fans, friends, contacts, unary }),
        },
        ...notifying.services,
      ],
      async stop() {
        await notifying.stop();
        await consumer.stop();
        await deadLetters.disconnect();
      },
      expose: { blocks, devices, fans, friends, contacts, notifications: notifying.notifications, fanOut: notifying.fanOut },
    };
  },
});

export type RunningSocialService = Awaited<ReturnType<typeof socialService.start>>;
export const startSocialService = socialService.start;
