import {
  NotificationAudience,
  type NotificationPreferences as PreferencesMessage,
  type NotificationServiceServer,
} from '@spinroom/contracts/social/v1/notification_service';
import { badRequest, type CallContext, type createUnaryFactory } from '@spinroom/platform';
import { NOTIFICATION_KINDS, type NotificationPreferences } from './notification.js';
import { formatTime, type Audience, type NotificationActor, type Notifications } from './notifications.js';

const actorOf = (context: CallContext): NotificationActor => ({
  userUuid: context.caller.userUuid,
  role: context.caller.role,
  kind: context.caller.kind,
});

const AUDIENCES: Partial<Record<NotificationAudience, Audience>> = {
  [NotificationAudience.NOTIFICATION_AUDIENCE_SELF]: 'self',
  [NotificationAudience.NOTIFICATION_AUDIENCE_USERS]: 'users',
  [NotificationAudience.NOTIFICATION_AUDIENCE_DJ_FANS]: 'djFans',
  [NotificationAudience.NOTIFICATION_AUDIENCE_ALL_DEVICES]: 'allDevices',
};

const preferencesMessage = (preferences: NotificationPreferences): PreferencesMessage => ({
  mutedKinds: preferences.muted,
  quietHours: preferences.quietHours
    ? {
        start: formatTime(preferences.quietHours.startMinute),
        end: formatTime(preferences.quietHours.endMinute),
        timeZone: preferences.quietHours.timeZone,
      }
    : undefined,
});

/** gRPC handlers of spinroom.social.v1.NotificationService: who calls, then the domain decides. */
export function notificationServiceHandlers(deps: {
  notifications: Notifications;
  unary: ReturnType<typeof createUnaryFactory>;
}): NotificationServiceServer {
  const { notifications, unary } = deps;
  return {
    sendNotification: unary(async (request, context) => {
      const audience = AUDIENCES[request.audience];
      if (!audience) throw badRequest('audience must be self, users, djFans or allDevices');
      const { fanOutId, accepted } = await notifications.send(actorOf(context), {
        audience,
        userUuids: request.userUuids,
        subjectUuid: request.subjectUuid,
        kind: request.kind,
        title: request.title,
        body: request.body,
        data: request.data,
        silent: request.silent,
        channel: request.channel,
      });
      const queued = audience === 'self' ? 1 : audience === 'users' ? new Set(request.userUuids.map((u) => u.toLowerCase())).size : 0;
      return { queued: accepted ? queued : 0, fanoutId: fanOutId ?? '', accepted };
    }),
    getNotificationPreferences: unary(async (_request, context) => ({
      preferences: preferencesMessage(await notifications.preferences(actorOf(context))),
      kinds: [...NOTIFICATION_KINDS],
    })),
    updateNotificationPreferences: unary(async (request, context) => ({
      preferences: preferencesMessage(
        await notifications.updatePreferences(actorOf(context), {
          mutedKinds: request.preferences?.mutedKinds ?? [],
          quietHours: request.preferences?.quietHours,
        }),
      ),
    })),
    getWebPushKey: unary.public(async () => ({ publicKey: notifications.webPushKey() })),
    subscribeWebPush: unary(async (request, context) => {
      const { id, created } = await notifications.subscribeWebPush(actorOf(context), request);
      return { deviceId: id, created };
    }),
    watchRoomSeat: unary(async (request, context) => ({ watch: await notifications.watchSeat(actorOf(context), request.roomUuid) })),
    unwatchRoomSeat: unary(async (request, context) => {
      await notifications.unwatchSeat(actorOf(context), request.roomUuid);
      return {};
    }),
    listRoomSeatWatches: unary(async (_request, context) => ({ watches: await notifications.watches(actorOf(context)) })),
  };
}
