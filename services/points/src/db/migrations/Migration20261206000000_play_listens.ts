import { Migration } from '@mikro-orm/migrations';

/**
 * Listen points (services/points/README.md, "Points"): who the room service
 * counted in a play's audience, and who said they played a song of that DJ
 * in that room for 30 seconds with the sound on (play-tracking; the client's
 * play id is its own, so a report meets its play by room, DJ, listener and
 * time). A listen point needs both, whichever arrives first; rows older than
 * two days are pruned as new ones come.
 */
export class Migration20261206000000_play_listens extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "play_listener" (
      "play_id" varchar(100) not null,
      "listener_uuid" uuid not null,
      "room_slug" varchar(200) not null,
      "dj_uuid" uuid not null,
      "started_at" timestamptz not null,
      "ended_at" timestamptz not null,
      "recorded_at" timestamptz not null,
      primary key ("play_id", "listener_uuid"))`);
    this.addSql(`create index "play_listener_match" on "play_listener" ("room_slug", "dj_uuid", "listener_uuid", "started_at")`);
    this.addSql(`create index "play_listener_recorded" on "play_listener" ("recorded_at")`);
    this.addSql(`create table "play_report" (
      "room_slug" varchar(200) not null,
      "dj_uuid" uuid not null,
      "listener_uuid" uuid not null,
      "reported_at" timestamptz not null,
      "recorded_at" timestamptz not null,
      primary key ("room_slug", "dj_uuid", "listener_uuid", "reported_at"))`);
    this.addSql(`create index "play_report_recorded" on "play_report" ("recorded_at")`);
  }
}
