import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { addToOutbox } from '@spinroom/platform';
import type { DeviceDirectory, PreferenceReader } from './delivery.js';
import {
  DEFAULT_PREFERENCES,
  type Device,
  type Notification,
  type NotificationChannel,
  type NotificationKind,
  type NotificationPreferences,
} from './notification.js';
import { notificationEntry } from './topic.js';

/** Who a fan-out tells: a DJ's fans, the people waiting for a room's seat, everyone with a device, or a list. */
export type FanOutAudience = 'djFans' | 'seatWatchers' | 'allDevices' | 'users';

export interface FanOutJob {
  audience: FanOutAudience;
  /** The DJ (djFans) or the room (seatWatchers). */
  subjectUuid: string | null;
  userUuids: string[] | null;
  kind: NotificationKind;
  title: string;
  body: string;
  data: Record<string, string>;
  silent: boolean;
  channel: NotificationChannel;
}

interface FanOutRow {
  id: string;
  audience: FanOutAudience;
  subject_uuid: string | null;
  user_uuids: string[] | null;
  kind: NotificationKind;
  title: string;
  body: string;
  data: Record<string, string>;
  silent: boolean;
  channel: NotificationChannel;
  cursor: string | null;
  created_at: Date;
}

interface DeviceRow {
  id: string;
  user_uuid: string;
  token: string;
  type: 'ios' | 'android' | 'web';
  web_push_p256dh: string | null;
  web_push_auth: string | null;
}

export interface SeatWatch {
  roomUuid: string;
  createdAt: Date;
}

const deviceTypes = (channel: NotificationChannel): string[] =>
  channel === 'web' ? ['web'] : channel === 'mobile' ? ['ios', 'android'] : ['ios', 'android', 'web'];

/** Notifications' tables, and the devices of the `device` table they reach. */
export class PgNotificationStore implements DeviceDirectory, PreferenceReader {
  constructor(private readonly orm: MikroORM) {}

  private em(): EntityManager {
    return this.orm.em.fork();
  }

  async devicesOf(userUuid: string): Promise<Device[]> {
    const rows = await this.em().execute<DeviceRow[]>(
      `select "id", "user_uuid", "token", "type", "web_push_p256dh", "web_push_auth" from "device" where "user_uuid" = ?`,
      [userUuid],
    );
    return rows.flatMap((row): Device[] => {
      if (row.type !== 'web') return [{ type: row.type, id: row.id, userUuid: row.user_uuid, token: row.token }];
      if (!row.web_push_p256dh || !row.web_push_auth) return [];
      return [
        { type: 'web', id: row.id, userUuid: row.user_uuid, endpoint: row.token, p256dh: row.web_push_p256dh, auth: row.web_push_auth },
      ];
    });
  }

  async remove(device: Device): Promise<void> {
    await this.em().execute(`delete from "device" where "id" = ?`, [device.id]);
  }

  async preferencesOf(userUuid: string): Promise<NotificationPreferences> {
    const [row] = await this.em().execute<
      Array<{
        muted_kinds: NotificationKind[];
        quiet_start_minute: number | null;
        quiet_end_minute: number | null;
        quiet_time_zone: string | null;
      }>
    >(
      `select "muted_kinds", "quiet_start_minute", "quiet_end_minute", "quiet_time_zone" from "notification_preference" where "user_uuid" = ?`,
      [userUuid],
    );
    if (!row) return DEFAULT_PREFERENCES;
    const quiet =
      row.quiet_start_minute !== null && row.quiet_end_minute !== null && row.quiet_time_zone
        ? { startMinute: row.quiet_start_minute, endMinute: row.quiet_end_minute, timeZone: row.quiet_time_zone }
        : null;
    return { muted: row.muted_kinds, quietHours: quiet };
  }

  async savePreferences(userUuid: string, preferences: NotificationPreferences, now: Date): Promise<void> {
    const quiet = preferences.quietHours;
    await this.em().execute(
      `insert into "notification_preference" ("user_uuid", "muted_kinds", "quiet_start_minute", "quiet_end_minute", "quiet_time_zone", "updated_at")
       values (?, string_to_array(?, ','), ?, ?, ?, ?)
       on conflict ("user_uuid") do update set "muted_kinds" = excluded."muted_kinds", "quiet_start_minute" = excluded."quiet_start_minute",
         "quiet_end_minute" = excluded."quiet_end_minute", "quiet_time_zone" = excluded."quiet_time_zone", "updated_at" = excluded."updated_at"`,
      [userUuid, preferences.muted.join(','), quiet?.startMinute ?? null, quiet?.endMinute ?? null, quiet?.timeZone ?? null, now],
    );
  }

  async watchSeat(userUuid: string, roomUuid: string, now: Date): Promise<SeatWatch> {
    const [row] = await this.em().execute<Array<{ room_uuid: string; created_at: Date }>>(
      `insert into "room_seat_watch" ("room_uuid", "user_uuid", "created_at") values (?, ?, ?)
       on conflict ("room_uuid", "user_uuid") do update set "room_uuid" = excluded."room_uuid"
       returning "room_uuid", "created_at"`,
      [roomUuid, userUuid, now],
    );
    return { roomUuid: row!.room_uuid, createdAt: new Date(row!.created_at) };
  }

  async unwatchSeat(userUuid: string, roomUuid: string): Promise<boolean> {
    const rows = await this.em().execute<unknown[]>(
      `delete from "room_seat_watch" where "room_uuid" = ? and "user_uuid" = ? returning "room_uuid"`,
      [roomUuid, userUuid],
    );
    return rows.length > 0;
  }

  async watchesOf(userUuid: string): Promise<SeatWatch[]> {
    const rows = await this.em().execute<Array<{ room_uuid: string; created_at: Date }>>(
      `select "room_uuid", "created_at" from "room_seat_watch" where "user_uuid" = ? order by "created_at" desc limit 100`,
      [userUuid],
    );
    return rows.map((row) => ({ roomUuid: row.room_uuid, createdAt: new Date(row.created_at) }));
  }

  /**
   * The digest window: true when the DJ's fans were not told within the
   * window before `at` (and records `at`), false when they were. Run in the
   * transaction of the event it handles, so a redelivered event claims nothing.
   */
  async claimDigest(em: EntityManager, djUuid: string, at: Date, windowMs: number): Promise<boolean> {
    const rows = await em.execute<unknown[]>(
      `insert into "dj_stage_digest" ("dj_uuid", "notified_at") values (?, ?)
       on conflict ("dj_uuid") do update set "notified_at" = excluded."notified_at"
       where "dj_stage_digest"."notified_at" <= ?
       returning "dj_uuid"`,
      [djUuid, at, new Date(at.getTime() - windowMs)],
    );
    return rows.length > 0;
  }

  /** claimDigest in a transaction of its own (a DJ's own call to their fans). */
  async claimDigestNow(djUuid: string, at: Date, windowMs: number): Promise<boolean> {
    return this.em().transactional((em) => this.claimDigest(em, djUuid, at, windowMs));
  }

  /** A fan-out to run, in the caller's transaction (or its own); its id. */
  async createFanOut(job: FanOutJob, now: Date, em: EntityManager = this.em()): Promise<string> {
    const id = randomUUID();
    await em.execute(
      `insert into "notification_fanout" ("id", "audience", "subject_uuid", "user_uuids", "kind", "title", "body", "data", "silent", "channel", "created_at")
       values (?, ?, ?, string_to_array(?, ',')::uuid[], ?, ?, ?, ?, ?, ?, ?)`,
      [
        id,
        job.audience,
        job.subjectUuid,
        job.userUuids ? job.userUuids.join(',') : null,
        job.kind,
        job.title,
        job.body,
        JSON.stringify(job.data),
        job.silent,
        job.channel,
        now,
      ],
    );
    return id;
  }

  /**
   * Writes the next batch of one pending fan-out to the outbox, one
   * notification per recipient, and moves its cursor past them, in one
   * transaction: a fan-out stopped between batches resumes after the last
   * one written, and no recipient is written twice. Seat watches are used
   * up as they are told. Returns how many were written (0: nothing pending).
   */
  async fanOutBatch(batchSize: number, now: Date): Promise<number> {
    return this.em().transactional(async (em) => {
      const [job] = await em.execute<FanOutRow[]>(
        `select "id", "audience", "subject_uuid", "user_uuids", "kind", "title", "body", "data", "silent", "channel", "cursor", "created_at"
         from "notification_fanout" where "finished_at" is null order by "created_at" limit 1 for update skip locked`,
      );
      if (!job) return 0;
      const recipients = await this.recipients(em, job, batchSize);
      for (const recipientUuid of recipients) {
        const notification: Notification = {
          id: randomUUID(),
          recipientUuid,
          kind: job.kind,
          title: job.title,
          body: job.body,
          data: job.data,
          silent: job.silent,
          channel: job.channel,
        };
        addToOutbox(em, notificationEntry(notification, now));
      }
      if (job.audience === 'seatWatchers' && recipients.length > 0) {
        await em.execute(`delete from "room_seat_watch" where "room_uuid" = ? and "user_uuid" in (?)`, [job.subject_uuid, recipients]);
      }
      const finished = recipients.length < batchSize;
      await em.execute(`update "notification_fanout" set "cursor" = ?, "sent" = "sent" + ?, "finished_at" = ? where "id" = ?`, [
        recipients.at(-1) ?? job.cursor,
        recipients.length,
        finished ? now : null,
        job.id,
      ]);
      // A finished fan-out with nobody left still counts as work done (the loop looks again).
      return Math.max(recipients.length, 1);
    });
  }

  /** The next recipients after the cursor, in uuid order (keyset, never the whole audience). */
  private async recipients(em: EntityManager, job: FanOutRow, limit: number): Promise<string[]> {
    const after = job.cursor ?? '00000000-0000-0000-0000-000000000000';
    let rows: Array<{ u: string }>;
    switch (job.audience) {
      case 'djFans':
        rows = await em.execute(
          `select "fan_uuid" as "u" from "dj_fan" where "dj_uuid" = ? and "fan_uuid" > ? order by "fan_uuid" limit ?`,
          [job.subject_uuid, after, limit],
        );
        break;
      case 'seatWatchers':
        rows = await em.execute(
          `select "user_uuid" as "u" from "room_seat_watch" where "room_uuid" = ? and "created_at" <= ? and "user_uuid" > ? order by "user_uuid" limit ?`,
          [job.subject_uuid, job.created_at, after, limit],
        );
        break;
      case 'allDevices':
        rows = await em.execute(
          `select distinct "user_uuid" as "u" from "device" where "type" in (?) and "user_uuid" > ? order by "user_uuid" limit ?`,
          [deviceTypes(job.channel), after, limit],
        );
        break;
      case 'users':
        rows = await em.execute(`select distinct "u" from unnest(?::uuid[]) as "u" where "u" > ? order by "u" limit ?`, [
          `{${(job.user_uuids ?? []).join(',')}}`,
          after,
          limit,
        ]);
        break;
    }
    return rows.map((row) => row.u);
  }
}
