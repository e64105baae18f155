import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Device, DeviceInput, DeviceStore, DeviceType } from '../domain/devices.js';

export interface DeviceRow {
  id: string;
  user_uuid: string;
  token: string;
  type: string;
  web_push_p256dh: string | null;
  web_push_auth: string | null;
  created_at: Date;
  updated_at: Date;
  inserted?: boolean;
}

export const DEVICE_COLUMNS = `"id", "user_uuid", "token", "type", "web_push_p256dh", "web_push_auth", "created_at", "updated_at"`;

export const toDevice = (row: DeviceRow): Device => ({
  id: row.id,
  userUuid: row.user_uuid,
  token: row.token,
  type: row.type as DeviceType,
  webPushP256dh: row.web_push_p256dh,
  webPushAuth: row.web_push_auth,
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

/** Devices in PostgreSQL: a token belongs to one user at a time. */
export class PgDeviceStore implements DeviceStore {
  constructor(private readonly orm: MikroORM) {}

  private em(): EntityManager {
    return this.orm.em.fork();
  }

  async upsert(userUuid: string, input: DeviceInput, now: Date): Promise<{ device: Device; created: boolean }> {
    // xmax = 0 only on a row this statement inserted.
    const [row] = await this.em().execute<DeviceRow[]>(
      `insert into "device" (${DEVICE_COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?)
       on conflict ("token") do update set "user_uuid" = excluded."user_uuid", "type" = excluded."type",
         "web_push_p256dh" = excluded."web_push_p256dh", "web_push_auth" = excluded."web_push_auth", "updated_at" = excluded."updated_at"
       returning ${DEVICE_COLUMNS}, (xmax = 0) as "inserted"`,
      [randomUUID(), userUuid, input.token, input.type, input.webPushP256dh, input.webPushAuth, now, now],
    );
    return { device: toDevice(row!), created: row!.inserted === true };
  }

  async remove(token: string, userUuid?: string): Promise<boolean> {
    const rows = await this.em().execute<Array<{ id: string }>>(
      userUuid === undefined
        ? `delete from "device" where "token" = ? returning "id"`
        : `delete from "device" where "token" = ? and "user_uuid" = ? returning "id"`,
      userUuid === undefined ? [token] : [token, userUuid],
    );
    return rows.length > 0;
  }

  async find(userUuid: string, token: string): Promise<Device | undefined> {
    const [row] = await this.em().execute<DeviceRow[]>(`select ${DEVICE_COLUMNS} from "device" where "user_uuid" = ? and "token" = ?`, [
      userUuid,
      token,
    ]);
    return row ? toDevice(row) : undefined;
  }

  async listOf(userUuid: string): Promise<Device[]> {
    const rows = await this.em().execute<DeviceRow[]>(
      `select ${DEVICE_COLUMNS} from "device" where "user_uuid" = ? order by "created_at" desc, "id"`,
      [userUuid],
    );
    return rows.map(toDevice);
  }
}
