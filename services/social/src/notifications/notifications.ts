import type { EntityManager } from '@mikro-orm/postgresql';
import { addToOutbox, badRequest, forbidden, isAdminRole, notFound, unavailable, type CallerKind } from '@spinroom/platform';
import {
  isTimeZone,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KINDS,
  type Notification,
  type NotificationChannel,
  type NotificationKind,
  type NotificationPreferences,
  pushEndpointAllowed,
  type PushEndpointRules,
} from './notification.js';
import type { FanOutJob, PgNotificationStore, SeatWatch } from './store.js';
import { notificationEntry } from './topic.js';

/** Who calls. */
export interface NotificationActor {
  userUuid: string;
  role: string;
  kind: CallerKind;
}

export type Audience = 'self' | 'users' | 'djFans' | 'allDevices';

export interface SendRequest {
  audience: Audience;
  userUuids: string[];
  subjectUuid: string;
  kind: string;
  title: string;
  body: string;
  data: Record<string, string>;
  silent: boolean;
  channel: string;
}

export interface NotificationsConfig {
  /** A DJ's fans are told once per window that they took the stage. */
  djDigestWindowMs: number;
  /** Browsers subscribe with this key; Web Push is off without it. */
  webPushPublicKey: string | undefined;
  /** The push services a browser's subscription may name (and plain HTTP local origins). */
  pushEndpoints: PushEndpointRules;
}

/** The Web Push subscription as a device of the `device` table (the social service's Devices). */
export interface WebDeviceRegistry {
  registerWeb(
    userUuid: string,
    subscription: { endpoint: string; p256dh: string; auth: string },
  ): Promise<{ id: string; created: boolean }>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_USERS = 10_000;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;
export const ONLY_ADMINS = 'Only admins may send this notification';

const requireMember = (actor: NotificationActor) => {
  if (actor.kind === 'guest' || actor.kind === 'service') throw forbidden();
};

function parseTime(value: string, field: string): number {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(value);
  if (!match) throw badRequest(`${field} must be a time HH:MM`);
  return Number(match[1]) * 60 + Number(match[2]);
}

export const formatTime = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

/**
 * What people ask of notifications, and what the platform's events make of
 * them: who may tell whom (admins anyone; a DJ their own fans, once per
 * digest window; anyone themself), preferences, seat watches, and the
 * notifications a DJ taking the stage, an opened seat and a friend
 * invitation give.
 */
export class Notifications {
  constructor(
    private readonly store: PgNotificationStore,
    private readonly webDevices: WebDeviceRegistry,
    private readonly config: NotificationsConfig,
    private readonly onFanOut: () => void,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async send(actor: NotificationActor, request: SendRequest): Promise<{ fanOutId: string | null; accepted: boolean }> {
    requireMember(actor);
    const admin = isAdminRole(actor.role);
    const kind = this.kindOf(request.kind || 'custom');
    const channel = this.channelOf(request.channel || 'all');
    const title = request.title.trim();
    const body = request.body.trim();
    if (!request.silent && !title && !body) throw badRequest('A notification needs a title or a body');
    if (title.length > 200) throw badRequest('title must be at most 200 characters');
    if (body.length > 2000) throw badRequest('body must be at most 2000 characters');
    if (Object.keys(request.data).length > 20 || Object.entries(request.data).some(([k, v]) => k.length > 64 || v.length > 1000)) {
      throw badRequest('data holds at most 20 entries, keys of 64 and values of 1000 characters');
    }
    const job: FanOutJob = {
      audience: 'users',
      subjectUuid: null,
      userUuids: null,
      kind,
      title,
      body,
      data: request.data,
      silent: request.silent,
      channel,
    };
    switch (request.audience) {
      case 'self':
        job.userUuids = [actor.userUuid];
        break;
      case 'users': {
        if (!admin) throw forbidden(ONLY_ADMINS);
        const users = [...new Set(request.userUuids.map((u) => u.toLowerCase()))];
        if (users.length > MAX_USERS || users.some((u) => !UUID.test(u))) {
          throw badRequest(`userUuids must name at most ${MAX_USERS} users by uuid`);
        }
        // A room with nobody in it now: nobody to tell, once the caller may tell them.
        if (users.length === 0) return { fanOutId: null, accepted: true };
        job.userUuids = users;
        break;
      }
      case 'djFans': {
        const dj = (request.subjectUuid || actor.userUuid).toLowerCase();
        if (!UUID.test(dj)) throw badRequest('The DJ must be a uuid');
        if (dj !== actor.userUuid && !admin) throw forbidden(ONLY_ADMINS);
        job.audience = 'djFans';
        job.subjectUuid = dj;
        job.data = { ...request.data, djUuid: dj };
        // The DJ's own call shares the stage's digest window: fans are told once.
        if (!admin) {
          const claimed = await this.store.claimDigestNow(dj, this.now(), this.config.djDigestWindowMs);
          if (!claimed) return { fanOutId: null, accepted: false };
        }
        break;
      }
      case 'allDevices':
        if (!admin) throw forbidden(ONLY_ADMINS);
        job.audience = 'allDevices';
        break;
    }
    const fanOutId = await this.store.createFanOut(job, this.now());
    this.onFanOut();
    return { fanOutId, accepted: true };
  }

  /** A DJ took the stage (room.stage-changed): their fans are told, once per digest window. In the event's transaction. */
  async djTookStage(
    em: EntityManager,
    stage: { djUuid: string; roomUuid: string; roomSlug: string; roomName: string; at: Date },
  ): Promise<boolean> {
    if (!(await this.store.claimDigest(em, stage.djUuid, stage.at, this.config.djDigestWindowMs))) return false;
    const where = stage.roomName || stage.roomSlug || 'a room';
    await this.store.createFanOut(
      {
        audience: 'djFans',
        subjectUuid: stage.djUuid,
        userUuids: null,
        kind: 'djOnStage',
        title: 'A DJ you follow is on stage',
        body: `They just took the stage in ${where}`,
        data: { djUuid: stage.djUuid, roomUuid: stage.roomUuid, roomSlug: stage.roomSlug },
        silent: false,
        channel: 'all',
      },
      this.now(),
      em,
    );
    return true;
  }

  /** A DJ seat opened on a room's stage: who waits for one is told (and waits no more). In the event's transaction. */
  async seatOpened(em: EntityManager, room: { roomUuid: string; roomSlug: string; roomName: string }): Promise<void> {
    const where = room.roomName || room.roomSlug || 'a room';
    await this.store.createFanOut(
      {
        audience: 'seatWatchers',
        subjectUuid: room.roomUuid,
        userUuids: null,
        kind: 'seatOpen',
        title: 'A DJ seat is open',
        body: `A seat opened on the stage of ${where}`,
        data: { roomUuid: room.roomUuid, roomSlug: room.roomSlug },
        silent: false,
        channel: 'all',
      },
      this.now(),
      em,
    );
  }

  /** One notification to one person, staged in the caller's transaction (friend invitations and their answers). */
  tell(em: EntityManager, notification: Notification): void {
    addToOutbox(em, notificationEntry(notification, this.now()));
  }

  async preferences(actor: NotificationActor): Promise<NotificationPreferences> {
    requireMember(actor);
    return this.store.preferencesOf(actor.userUuid);
  }

  async updatePreferences(
    actor: NotificationActor,
    input: { mutedKinds: string[]; quietHours?: { start: string; end: string; timeZone: string } },
  ): Promise<NotificationPreferences> {
    requireMember(actor);
    const muted = [...new Set(input.mutedKinds.map((kind) => this.kindOf(kind)))];
    let quietHours: NotificationPreferences['quietHours'] = null;
    if (input.quietHours) {
      const startMinute = parseTime(input.quietHours.start, 'quietHours.start');
      const endMinute = parseTime(input.quietHours.end, 'quietHours.end');
      if (!isTimeZone(input.quietHours.timeZone) || input.quietHours.timeZone.length > 64) {
        throw badRequest('quietHours.timeZone must be an IANA time zone');
      }
      quietHours = { startMinute, endMinute, timeZone: input.quietHours.timeZone };
    }
    const preferences = { muted, quietHours };
    await this.store.savePreferences(actor.userUuid, preferences, this.now());
    return preferences;
  }

  webPushKey(): string {
    if (!this.config.webPushPublicKey) throw unavailable('Web Push is not configured');
    return this.config.webPushPublicKey;
  }

  async subscribeWebPush(actor: NotificationActor, input: { endpoint: string; p256dh: string; auth: string }) {
    requireMember(actor);
    this.webPushKey();
    if (input.endpoint.length > 2048 || !pushEndpointAllowed(input.endpoint, this.config.pushEndpoints)) {
      throw badRequest('endpoint must be the https URL of a browser’s push service');
    }
    if (!BASE64URL.test(input.p256dh) || input.p256dh.length > 256 || !BASE64URL.test(input.auth) || input.auth.length > 128) {
      throw badRequest('keys.p256dh and keys.auth must be the subscription’s base64url keys');
    }
    return this.webDevices.registerWeb(actor.userUuid, input);
  }

  async watchSeat(actor: NotificationActor, roomUuid: string): Promise<SeatWatch> {
    requireMember(actor);
    if (!UUID.test(roomUuid)) throw notFound('Room not found');
    return this.store.watchSeat(actor.userUuid, roomUuid.toLowerCase(), this.now());
  }

  async unwatchSeat(actor: NotificationActor, roomUuid: string): Promise<void> {
    requireMember(actor);
    if (!UUID.test(roomUuid) || !(await this.store.unwatchSeat(actor.userUuid, roomUuid.toLowerCase()))) {
      throw notFound('Not waiting for a seat in this room');
    }
  }

  async watches(actor: NotificationActor): Promise<SeatWatch[]> {
    requireMember(actor);
    return this.store.watchesOf(actor.userUuid);
  }

  private kindOf(kind: string): NotificationKind {
    if (!(NOTIFICATION_KINDS as readonly string[]).includes(kind)) throw badRequest(`kind must be one of ${NOTIFICATION_KINDS.join(', ')}`);
    return kind as NotificationKind;
  }

  private channelOf(channel: string): NotificationChannel {
    if (!(NOTIFICATION_CHANNELS as readonly string[]).includes(channel))
      throw badRequest(`channel must be one of ${NOTIFICATION_CHANNELS.join(', ')}`);
    return channel as NotificationChannel;
  }
}
