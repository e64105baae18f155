import { NOTIFICATION_KINDS } from '@spinroom/contracts/notifications';
import { NotificationAudience, NotificationServiceClient } from '@spinroom/contracts/social/v1/notification_service';
import { AppError, createGrpcClient, type PromiseClient } from '@spinroom/platform/core';
import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route.js';
import type { RoomClients } from '../room/clients.js';
import { BASE, Deleted } from './schemas.js';

export type NotificationClient = PromiseClient<NotificationServiceClient>;

export function createNotificationClient(address: string): NotificationClient {
  return createGrpcClient(NotificationServiceClient, address);
}

const KINDS = NOTIFICATION_KINDS;
const Title = z.string().trim().max(200);
const Body = z.string().trim().max(2000);
const Data = z
  .record(z.string().min(1).max(64), z.string().max(1000))
  .refine((data) => Object.keys(data).length <= 20, 'data holds at most 20 entries')
  .optional()
  .openapi({ description: 'Handed to the app with the notification (at most 20 entries)' });
const Shown = { title: Title.min(1), body: Body.default(''), data: Data };

const SendResult = z
  .object({
    queued: z.number().int().min(0).openapi({ description: 'Notifications asked for now, one per recipient' }),
    fanoutId: z.uuid().nullable().openapi({ description: 'The fan-out streaming the audience to the notifications topic' }),
    accepted: z.boolean().openapi({ description: "false: the DJ's fans were told within the digest window already" }),
  })
  .openapi('NotificationSendResult');

const Time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time HH:MM');
const Preferences = z
  .object({
    mutedKinds: z.array(z.enum(KINDS)).max(KINDS.length).openapi({ description: 'Kinds not pushed to this person' }),
    quietHours: z
      .object({
        start: Time.openapi({ description: 'HH:MM, 24-hour' }),
        end: Time.openapi({ description: 'HH:MM; before start: the quiet spans midnight' }),
        timeZone: z.string().min(1).max(64).openapi({ description: 'An IANA time zone (Europe/Madrid)' }),
      })
      .nullable()
      .openapi({ description: 'Nothing shown is pushed in these hours (silent data still is); null: none' }),
  })
  .openapi('NotificationPreferences');
const PreferencesAnswer = Preferences.extend({ kinds: z.array(z.string()).openapi({ description: 'Every kind there is' }) }).openapi(
  'NotificationPreferencesAnswer',
);

const SeatWatch = z.object({ roomUuid: z.uuid(), createdAt: z.string() }).openapi('RoomSeatWatch');

type Send = Parameters<NotificationClient['sendNotification']>[0];

function sendResult(answer: { queued: number; fanoutId: string; accepted: boolean }): z.input<typeof SendResult> {
  return { queued: answer.queued, fanoutId: answer.fanoutId || null, accepted: answer.accepted };
}

function preferencesJson(preferences: { mutedKinds: string[]; quietHours?: { start: string; end: string; timeZone: string } } | undefined) {
  return {
    mutedKinds: (preferences?.mutedKinds ?? []).filter((kind): kind is (typeof KINDS)[number] =>
      (KINDS as readonly string[]).includes(kind),
    ),
    quietHours: preferences?.quietHours ?? null,
  };
}

/** Every client call refuses with 503 when the BFF runs without the social service. */
function unavailable<T extends object>(): T {
  return new Proxy({}, { get: () => () => Promise.reject(new AppError(503, 'The social service is not available')) }) as T;
}

/**
 * Notifications (spec 001: POST /mobileNotification and its sub-paths,
 * /notifications/dj-fans, /notifications/custom-message,
 * /notifications/custom-message-from-room, GET /room-users-notification and
 * /dj-fans-notification; spec 002: POST /web-notifications/subscription and
 * /push-notification), with the caller's preferences and seat watches.
 * Sending is asynchronous (202): each recipient's notification goes through
 * Kafka to their devices. Sending to others is for admins, which the social
 * service checks; a DJ may tell their own fans.
 */
export function notificationRoutes(deps: RouteDeps, client: NotificationClient | undefined, rooms: RoomClients | undefined): void {
  const notifications = client ?? unavailable<NotificationClient>();
  const roomService = rooms ?? unavailable<RoomClients>();
  const tags = ['notifications'];
  const send = async (request: Partial<Send>) =>
    sendResult(
      await notifications.sendNotification({
        audience: NotificationAudience.NOTIFICATION_AUDIENCE_USERS,
        userUuids: [],
        subjectUuid: '',
        kind: 'custom',
        title: '',
        body: '',
        data: {},
        silent: false,
        channel: 'all',
        ...request,
      }),
    );
  /** The people in a room now (the room service's live state). */
  const roomUsers = async (roomUuid: string) =>
    (await roomService.listRoomUsers({ room: { uuid: roomUuid, slug: '', id: 0 } })).usersInRoomUuids;
  const sendPath = (
    path: string,
    summary: string,
    body: z.ZodType,
    toRequest: (body: never) => Promise<Partial<Send>> | Partial<Send>,
    errors: number[] = [403, 503],
  ) =>
    route(deps, {
      method: 'post',
      path,
      summary,
      tags,
      status: 202,
      body,
      response: SendResult,
      errors,
      // The social service decides who may send, also to a room with nobody in it.
      handler: async ({ body: input }) => send(await toRequest(input as never)),
    });

  const mobile = `${BASE}/mobileNotification`;
  const OneUser = z.object({ userUuid: z.uuid(), ...Shown });
  const Silent = z.object({ userUuid: z.uuid(), data: z.record(z.string().min(1).max(64), z.string().max(1000)) });
  sendPath(
    mobile,
    "Pushes a notification to a user's phones (admins)",
    OneUser.openapi('MobileNotification'),
    (b: z.infer<typeof OneUser>) => ({
      userUuids: [b.userUuid],
      title: b.title,
      body: b.body,
      data: b.data ?? {},
      channel: 'mobile',
    }),
  );
  const ManyUsers = z.object({ userUuids: z.array(z.uuid()).min(1).max(100), ...Shown });
  sendPath(
    `${mobile}/admin`,
    "Pushes a notification to up to 100 users' phones (admins)",
    ManyUsers.openapi('MobileNotificationToUsers'),
    (b: z.infer<typeof ManyUsers>) => ({ userUuids: b.userUuids, title: b.title, body: b.body, data: b.data ?? {}, channel: 'mobile' }),
  );
  sendPath(
    `${mobile}/silent-notification`,
    "Pushes data alone, nothing shown, to a user's phones (admins); quiet hours do not hold it back",
    Silent.openapi('SilentNotification'),
    (b: z.infer<typeof Silent>) => ({ userUuids: [b.userUuid], data: b.data, silent: true, channel: 'mobile' }),
  );
  const CustomMessage = z.object({ userUuid: z.uuid(), message: z.string().trim().min(1).max(2000), title: Title.optional() });
  sendPath(
    `${mobile}/custom-message`,
    "Pushes a message to a user's phones (admins)",
    CustomMessage.openapi('CustomMessageNotification'),
    (b: z.infer<typeof CustomMessage>) => ({ userUuids: [b.userUuid], title: b.title || 'Spinroom', body: b.message, channel: 'mobile' }),
  );
  const Everyone = z.object(Shown);
  sendPath(
    `${mobile}/all-devices`,
    'Pushes a notification to every phone (admins), streamed to the devices in batches',
    Everyone.openapi('BroadcastNotification'),
    (b: z.infer<typeof Everyone>) => ({
      audience: NotificationAudience.NOTIFICATION_AUDIENCE_ALL_DEVICES,
      title: b.title,
      body: b.body,
      data: b.data ?? {},
      channel: 'mobile',
    }),
  );
  sendPath(`${mobile}/user`, "Pushes a notification to the caller's own phones (to try them)", Everyone, (b: z.infer<typeof Everyone>) => ({
    audience: NotificationAudience.NOTIFICATION_AUDIENCE_SELF,
    title: b.title,
    body: b.body,
    data: b.data ?? {},
    channel: 'mobile',
  }));
  sendPath(`${mobile}/user/admin`, "Pushes a notification to a user's phones (admins)", OneUser, (b: z.infer<typeof OneUser>) => ({
    userUuids: [b.userUuid],
    title: b.title,
    body: b.body,
    data: b.data ?? {},
    channel: 'mobile',
  }));
  sendPath(
    `${mobile}/user/admin/silent-nofitication`,
    "Pushes data alone to a user's phones (admins; the path keeps the original's spelling)",
    Silent,
    (b: z.infer<typeof Silent>) => ({ userUuids: [b.userUuid], data: b.data, silent: true, channel: 'mobile' }),
  );
  const RoomMessage = z.object({ roomUuid: z.uuid(), ...Shown });
  sendPath(
    `${mobile}/room-users`,
    "Pushes a notification to the phones of the people in a room now (admins); 404 'Room not found'",
    RoomMessage.openapi('RoomUsersNotification'),
    async (b: z.infer<typeof RoomMessage>) => ({
      userUuids: await roomUsers(b.roomUuid),
      title: b.title,
      body: b.body,
      data: { ...b.data, roomUuid: b.roomUuid },
      channel: 'mobile',
    }),
    [403, 404, 503],
  );

  const DjFans = z.object({
    djUuid: z.uuid().optional().openapi({ description: 'The DJ whose fans are told (admins); the caller when left out' }),
    title: Title.optional(),
    body: Body.optional(),
    data: Data,
  });
  sendPath(
    `${BASE}/notifications/dj-fans`,
    "Tells a DJ's fans (the caller's own; admins any DJ's), streamed in batches; a DJ's own call shares the stage's digest window (accepted false when their fans were told within it)",
    DjFans.openapi('DjFansNotification'),
    (b: z.infer<typeof DjFans>) => ({
      audience: NotificationAudience.NOTIFICATION_AUDIENCE_DJ_FANS,
      subjectUuid: b.djUuid ?? '',
      kind: 'djOnStage',
      title: b.title || 'A DJ you follow is live',
      body: b.body ?? '',
      data: b.data ?? {},
    }),
  );
  const UsersMessage = z.object({
    userUuids: z.array(z.uuid()).min(1).max(100),
    message: z.string().trim().min(1).max(2000),
    title: Title.optional(),
  });
  sendPath(
    `${BASE}/notifications/custom-message`,
    "Pushes a message to up to 100 users' phones and browsers (admins)",
    UsersMessage.openapi('CustomMessageToUsers'),
    (b: z.infer<typeof UsersMessage>) => ({ userUuids: b.userUuids, title: b.title || 'Spinroom', body: b.message }),
  );
  const FromRoom = z.object({ roomUuid: z.uuid(), message: z.string().trim().min(1).max(2000), title: Title.optional() });
  sendPath(
    `${BASE}/notifications/custom-message-from-room`,
    "Pushes a message to the phones and browsers of the people in a room now (admins); 404 'Room not found'",
    FromRoom.openapi('CustomMessageFromRoom'),
    async (b: z.infer<typeof FromRoom>) => ({
      userUuids: await roomUsers(b.roomUuid),
      title: b.title || 'Spinroom',
      body: b.message,
      data: { roomUuid: b.roomUuid },
    }),
    [403, 404, 503],
  );

  route(deps, {
    method: 'get',
    path: `${BASE}/notifications/preferences`,
    summary: "The caller's notification preferences: muted kinds and quiet hours",
    tags,
    response: PreferencesAnswer,
    errors: [403, 503],
    handler: async () => {
      const { preferences, kinds } = await notifications.getNotificationPreferences({});
      return { ...preferencesJson(preferences), kinds };
    },
  });

  route(deps, {
    method: 'put',
    path: `${BASE}/notifications/preferences`,
    summary: "Replaces the caller's notification preferences; 400 for an unknown time zone",
    tags,
    body: Preferences,
    response: Preferences,
    errors: [403, 503],
    handler: async ({ body }) =>
      preferencesJson(
        (
          await notifications.updateNotificationPreferences({
            preferences: { mutedKinds: body.mutedKinds, quietHours: body.quietHours ?? undefined },
          })
        ).preferences,
      ),
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/dj-fans-notification`,
    summary: 'Whether the caller is told when a DJ they follow takes the stage (the djOnStage kind, not muted)',
    tags,
    response: z.object({ enabled: z.boolean() }).openapi('DjFansNotificationSetting'),
    errors: [403, 503],
    handler: async () => {
      const { preferences } = await notifications.getNotificationPreferences({});
      return { enabled: !(preferences?.mutedKinds ?? []).includes('djOnStage') };
    },
  });

  const watches = `${BASE}/room-users-notification`;
  route(deps, {
    method: 'get',
    path: watches,
    summary: 'The rooms the caller waits for a DJ seat in, newest first: each tells them once when a seat opens',
    tags,
    response: z.object({ watches: z.array(SeatWatch) }).openapi('RoomSeatWatches'),
    errors: [403, 503],
    handler: async () => ({
      watches: (await notifications.listRoomSeatWatches({})).watches.map((w) => ({
        roomUuid: w.roomUuid,
        createdAt: (w.createdAt ?? new Date(0)).toISOString(),
      })),
    }),
  });

  route(deps, {
    method: 'post',
    path: watches,
    summary: "Asks to be told when a DJ seat opens on a room's stage (once; asking again keeps the first ask)",
    tags,
    status: 201,
    body: z.object({ roomUuid: z.uuid() }).openapi('RoomSeatWatchRequest'),
    response: SeatWatch,
    errors: [403, 404, 503],
    handler: async ({ body }) => {
      const { watch } = await notifications.watchRoomSeat({ roomUuid: body.roomUuid });
      return { roomUuid: watch?.roomUuid ?? body.roomUuid, createdAt: (watch?.createdAt ?? new Date(0)).toISOString() };
    },
  });

  route(deps, {
    method: 'delete',
    path: `${watches}/{roomUuid}`,
    summary: "Stops waiting for a room's seat; 404 'Not waiting for a seat in this room'",
    tags,
    params: z.object({ roomUuid: z.uuid() }),
    response: Deleted,
    errors: [403, 404, 503],
    handler: async ({ params }) => {
      await notifications.unwatchRoomSeat({ roomUuid: params.roomUuid });
      return {};
    },
  });

  const web = `${BASE}/web-notifications`;
  route(deps, {
    method: 'get',
    path: `${web}/public-key`,
    summary: "The application server key (VAPID) browsers subscribe with; 503 'Web Push is not configured'",
    tags,
    auth: 'public',
    response: z.object({ publicKey: z.string() }).openapi('WebPushPublicKey'),
    errors: [503],
    handler: async () => ({ publicKey: (await notifications.getWebPushKey({})).publicKey }),
  });

  route(deps, {
    method: 'post',
    path: `${web}/subscription`,
    summary: "Stores the caller's browser's Web Push subscription (PushSubscription.toJSON()) as a web device; re-subscribing moves it",
    tags,
    status: 201,
    body: z
      .object({
        endpoint: z.url().max(2048),
        expirationTime: z.number().nullable().optional(),
        keys: z.object({ p256dh: z.string().min(1).max(256), auth: z.string().min(1).max(128) }),
      })
      .openapi('WebPushSubscription'),
    response: z.object({ deviceId: z.uuid(), created: z.boolean() }).openapi('WebPushSubscribed'),
    errors: [403, 503],
    handler: async ({ body }) => {
      const { deviceId, created } = await notifications.subscribeWebPush({ endpoint: body.endpoint, ...body.keys });
      return { deviceId, created };
    },
  });

  const WebPush = z
    .object({
      userUuid: z.uuid().optional().openapi({ description: "Another user's browsers (admins); the caller's own when left out" }),
      ...Shown,
    })
    .openapi('WebPushNotification');
  sendPath(
    `${web}/push-notification`,
    "Pushes a notification to the caller's own browsers, or a user's (admins)",
    WebPush,
    (b: z.infer<typeof WebPush>) => ({
      audience: b.userUuid ? NotificationAudience.NOTIFICATION_AUDIENCE_USERS : NotificationAudience.NOTIFICATION_AUDIENCE_SELF,
      userUuids: b.userUuid ? [b.userUuid] : [],
      title: b.title,
      body: b.body,
      data: b.data ?? {},
      channel: 'web',
    }),
  );
}
