import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { addToOutbox } from '@spinroom/platform';
import type { Page, Paged } from '../domain/actors.js';
import type { Device } from '../domain/devices.js';
import type { DjFan, DjFanStore, DjSummary } from '../domain/dj-fans.js';
import { djFollowed } from '../events/social-events.js';
import { DEVICE_COLUMNS, toDevice, type DeviceRow } from './device-store.js';
import { pageTotal } from './paging.js';

interface FanRow {
  id: string;
  fan_uuid: string;
  dj_uuid: string;
  created_at: Date;
  total?: string;
}

const COLUMNS = `"id", "fan_uuid", "dj_uuid", "created_at"`;

const toFan = (row: FanRow): DjFan => ({ id: row.id, fanUuid: row.fan_uuid, djUuid: row.dj_uuid, createdAt: new Date(row.created_at) });

/** DJ fans in PostgreSQL; a follow and its social.dj-followed event commit together. */
export class PgDjFanStore implements DjFanStore {
  constructor(
    private readonly orm: MikroORM,
    private readonly onEventsCommitted: () => void = () => undefined,
  ) {}

  private em(): EntityManager {
    return this.orm.em.fork();
  }

  async follow(fanUuid: string, djUuid: string, now: Date): Promise<{ fan: DjFan; created: boolean }> {
    const result = await this.em().transactional(async (em) => {
      const [inserted] = await em.execute<FanRow[]>(
        `insert into "dj_fan" (${COLUMNS}) values (?, ?, ?, ?) on conflict ("dj_uuid", "fan_uuid") do nothing returning ${COLUMNS}`,
        [randomUUID(), fanUuid, djUuid, now],
      );
      if (inserted) {
        const fan = toFan(inserted);
        addToOutbox(em, djFollowed(fan));
        return { fan, created: true };
      }
      const [existing] = await em.execute<FanRow[]>(`select ${COLUMNS} from "dj_fan" where "dj_uuid" = ? and "fan_uuid" = ?`, [
        djUuid,
        fanUuid,
      ]);
      return { fan: toFan(existing!), created: false };
    });
    if (result.created) this.onEventsCommitted();
    return result;
  }

  async unfollow(fanUuid: string, idOrDj: string): Promise<boolean> {
    const rows = await this.em().execute<Array<{ id: string }>>(
      `delete from "dj_fan" where "fan_uuid" = ? and ("dj_uuid" = ? or "id" = ?) returning "id"`,
      [fanUuid, idOrDj, idOrDj],
    );
    return rows.length > 0;
  }

  async find(fanUuid: string, djUuid: string): Promise<DjFan | undefined> {
    const [row] = await this.em().execute<FanRow[]>(`select ${COLUMNS} from "dj_fan" where "dj_uuid" = ? and "fan_uuid" = ?`, [
      djUuid,
      fanUuid,
    ]);
    return row ? toFan(row) : undefined;
  }

  private async page(column: 'fan_uuid' | 'dj_uuid', uuid: string, page: Page): Promise<Paged<DjFan>> {
    const em = this.em();
    const rows = await em.execute<FanRow[]>(
      `select ${COLUMNS}, count(*) over () as "total" from "dj_fan" where "${column}" = ?
       order by "created_at" desc, "id" limit ? offset ?`,
      [uuid, page.take, page.skip],
    );
    return {
      items: rows.map(toFan),
      total: await pageTotal(em, rows, `select count(*) as "n" from "dj_fan" where "${column}" = ?`, [uuid]),
    };
  }

  followedBy(fanUuid: string, page: Page): Promise<Paged<DjFan>> {
    return this.page('fan_uuid', fanUuid, page);
  }

  fansOf(djUuid: string, page: Page): Promise<Paged<DjFan>> {
    return this.page('dj_uuid', djUuid, page);
  }

  async counts(userUuid: string): Promise<{ fans: number; following: number }> {
    const [row] = await this.em().execute<Array<{ fans: string; following: string }>>(
      `select (select count(*) from "dj_fan" where "dj_uuid" = ?) as "fans", (select count(*) from "dj_fan" where "fan_uuid" = ?) as "following"`,
      [userUuid, userUuid],
    );
    return { fans: Number(row?.fans ?? 0), following: Number(row?.following ?? 0) };
  }

  async fanDevices(djUuid: string, afterId: string | null, take: number): Promise<Device[]> {
    const rows = await this.em().execute<DeviceRow[]>(
      `select ${DEVICE_COLUMNS.replace(/"(\w+)"/g, 'd."$1"')} from "device" d join "dj_fan" f on f."fan_uuid" = d."user_uuid"
       where f."dj_uuid" = ? and (?::uuid is null or d."id" > ?::uuid) order by d."id" limit ?`,
      [djUuid, afterId, afterId, take],
    );
    return rows.map(toDevice);
  }

  async djs(page: Page): Promise<Paged<DjSummary>> {
    const em = this.em();
    const rows = await em.execute<Array<{ dj_uuid: string; fans: string; last: Date; total: string }>>(
      `select "dj_uuid", count(*) as "fans", max("created_at") as "last", count(*) over () as "total"
       from "dj_fan" group by "dj_uuid" order by count(*) desc, "dj_uuid" limit ? offset ?`,
      [page.take, page.skip],
    );
    const total = await pageTotal(em, rows, `select count(distinct "dj_uuid") as "n" from "dj_fan"`, []);
    const following = await this.followingOf(rows.map((row) => row.dj_uuid));
    return {
      items: rows.map((row) => ({
        djUuid: row.dj_uuid,
        fans: Number(row.fans),
        following: following.get(row.dj_uuid) ?? 0,
        lastFollowedAt: new Date(row.last),
      })),
      total,
    };
  }

  private async followingOf(uuids: string[]): Promise<Map<string, number>> {
    if (uuids.length === 0) return new Map();
    const rows = await this.em().execute<Array<{ fan_uuid: string; n: string }>>(
      `select "fan_uuid", count(*) as "n" from "dj_fan" where "fan_uuid" in (?) group by "fan_uuid"`,
      [uuids],
    );
    return new Map(rows.map((row) => [row.fan_uuid, Number(row.n)]));
  }

  async dj(djUuid: string): Promise<DjSummary> {
    const [row] = await this.em().execute<Array<{ fans: string; following: string; last: Date | null }>>(
      `select (select count(*) from "dj_fan" where "dj_uuid" = ?) as "fans",
              (select count(*) from "dj_fan" where "fan_uuid" = ?) as "following",
              (select max("created_at") from "dj_fan" where "dj_uuid" = ?) as "last"`,
      [djUuid, djUuid, djUuid],
    );
    return {
      djUuid,
      fans: Number(row?.fans ?? 0),
      following: Number(row?.following ?? 0),
      lastFollowedAt: row?.last ? new Date(row.last) : null,
    };
  }
}
