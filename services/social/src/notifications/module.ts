import { readFileSync } from 'node:fs';
import type { MikroORM } from '@mikro-orm/postgresql';
import { NotificationServiceService } from '@spinroom/contracts/social/v1/notification_service';
import {
  startIdempotentConsumer,
  type createUnaryFactory,
  type EventProducer,
  type GrpcServiceRegistration,
  type KafkaClient,
  type Logger,
  type OutboxRelay,
} from '@spinroom/platform';
import type { ConfigOf } from '@spinroom/platform/core';
import { PgDeviceStore } from '../db/device-store.js';
import { ApnsChannel } from './channels/apns.js';
import { FcmChannel, type FcmServiceAccount } from './channels/fcm.js';
import { WebPushChannel } from './channels/web-push.js';
import type { notificationsConfig } from './config.js';
import { notificationsHandler, roomEventsHandler, ROOM_EVENTS_TOPIC, socialEventsHandler } from './consumers.js';
import { NotificationDelivery, type PushChannels } from './delivery.js';
import { FanOutWorker } from './fanout.js';
import { Notifications } from './notifications.js';
import { notificationServiceHandlers } from './rpc.js';
import { PgNotificationStore } from './store.js';
import { NOTIFICATIONS_TOPIC } from './topic.js';

/** The topics notifications read (and write: `notifications`). */
export const NOTIFICATION_TOPICS = [NOTIFICATIONS_TOPIC, ROOM_EVENTS_TOPIC];

type Config = ConfigOf<typeof notificationsConfig> & { KAFKA_CONSUMER_GROUP: string };

/** The channels whose credentials the environment holds; the others are off (logged). */
export function pushChannels(config: Config, logger: Logger): PushChannels {
  const channels: PushChannels = {};
  if (config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY) {
    channels.web = new WebPushChannel(
      { subject: config.VAPID_SUBJECT, publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY },
      { ttlSeconds: 3600, timeoutMs: 10_000, plainHttpOrigins: config.WEB_PUSH_PLAIN_HTTP_ORIGINS, hosts: config.WEB_PUSH_ENDPOINT_HOSTS },
    );
  } else logger.warn('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are not set: Web Push is off');
  if (config.FCM_SERVICE_ACCOUNT_JSON) {
    const text = config.FCM_SERVICE_ACCOUNT_JSON.trim().startsWith('{')
      ? config.FCM_SERVICE_ACCOUNT_JSON
      : readFileSync(config.FCM_SERVICE_ACCOUNT_JSON, 'utf8');
    const account = JSON.parse(text) as FcmServiceAccount;
    channels.android = new FcmChannel(
      { ...account, token_uri: account.token_uri || 'https://oauth2.googleapis.com/token' },
      { endpoint: config.FCM_ENDPOINT },
    );
  } else logger.warn('FCM_SERVICE_ACCOUNT_JSON is not set: Android push (FCM) is off');
  if (config.APNS_KEY && config.APNS_KEY_ID && config.APNS_TEAM_ID && config.APNS_BUNDLE_ID) {
    channels.ios = new ApnsChannel({
      key: config.APNS_KEY,
      keyId: config.APNS_KEY_ID,
      teamId: config.APNS_TEAM_ID,
      bundleId: config.APNS_BUNDLE_ID,
      production: config.APNS_PRODUCTION,
      address: config.APNS_ADDRESS,
      ca: config.APNS_CA,
    });
  } else if (channels.android) {
    // An app built with Firebase has FCM tokens on iOS too.
    channels.ios = channels.android;
  } else logger.warn('APNS_KEY, APNS_KEY_ID, APNS_TEAM_ID and APNS_BUNDLE_ID are not set: iOS push (APNs) is off');
  return channels;
}

/**
 * Notifications inside the social service (services/social/README.md,
 * "Notifications"): the NotificationService, the consumers of room-events,
 * social-events and notifications (each in a group of its own), the fan-out
 * worker and the push channels. Started and stopped by the service's build.
 */
export async function startNotifications(kit: {
  config: Config;
  logger: Logger;
  orm: MikroORM;
  kafka: KafkaClient;
  relay: OutboxRelay;
  unary: ReturnType<typeof createUnaryFactory>;
  deadLetters: EventProducer;
  socialEventsTopic: string;
  now?: () => Date;
}): Promise<{ services: GrpcServiceRegistration[]; stop(): Promise<void>; notifications: Notifications; fanOut: FanOutWorker }> {
  const { config, logger, orm, kafka, relay, deadLetters } = kit;
  const store = new PgNotificationStore(orm);
  const devices = new PgDeviceStore(orm);
  const fanOut = new FanOutWorker(store, () => relay.nudge(), logger, {
    batchSize: config.NOTIFICATION_FANOUT_BATCH,
    intervalMs: config.NOTIFICATION_FANOUT_POLL_MS,
    now: kit.now,
  });
  const notifications = new Notifications(
    store,
    {
      registerWeb: async (userUuid, subscription) => {
        const { device, created } = await devices.upsert(
          userUuid,
          { token: subscription.endpoint, type: 'web', webPushP256dh: subscription.p256dh, webPushAuth: subscription.auth },
          kit.now?.() ?? new Date(),
        );
        return { id: device.id, created };
      },
    },
    {
      djDigestWindowMs: config.NOTIFICATION_DJ_DIGEST_MINUTES * 60_000,
      webPushPublicKey: config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY ? config.VAPID_PUBLIC_KEY : undefined,
      pushEndpoints: { hosts: config.WEB_PUSH_ENDPOINT_HOSTS, plainHttpOrigins: config.WEB_PUSH_PLAIN_HTTP_ORIGINS },
    },
    () => fanOut.nudge(),
    kit.now,
  );
  const channels = pushChannels(config, logger);
  const delivery = new NotificationDelivery(store, store, channels, logger, kit.now);
  // Each topic in a group of its own, so a burst of notifications never holds up the stage's events; joined side by side.
  const consumers = await Promise.all(
    (
      [
        [ROOM_EVENTS_TOPIC, roomEventsHandler(notifications)],
        [kit.socialEventsTopic, socialEventsHandler(notifications)],
        [NOTIFICATIONS_TOPIC, notificationsHandler(delivery, logger)],
      ] as const
    ).map(([topic, handle]) =>
      startIdempotentConsumer({
        kafka,
        orm,
        groupId: `${config.KAFKA_CONSUMER_GROUP}.${topic}`,
        topics: [topic],
        handle,
        deadLetters,
        logger,
      }),
    ),
  );
  fanOut.start();
  return {
    services: [
      {
        name: 'spinroom.social.v1.NotificationService',
        definition: NotificationServiceService,
        implementation: notificationServiceHandlers({ notifications, unary: kit.unary }),
      },
    ],
    async stop() {
      await fanOut.stop();
      for (const consumer of consumers) await consumer.stop();
      const closing = new Set(Object.values(channels));
      for (const channel of closing) await channel?.close?.();
    },
    notifications,
    fanOut,
  };
}
