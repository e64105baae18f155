import { Migration } from '@mikro-orm/migrations';
import { OUTBOX_TABLES_SQL } from '@spinroom/platform';

export class Migration20261122000000_songs_and_transcode_jobs extends Migration {
  override async up(): Promise<void> {
    for (const sql of OUTBOX_TABLES_SQL) this.addSql(sql);
    this.addSql(`create table "song" (
      "id" uuid primary key,
      "uploader_uuid" uuid not null,
      "status" varchar(32) not null check ("status" in ('PENDING_UPLOAD', 'VALID_FILE_TYPE', 'MISSING_METADATA', 'VERIFIED',
        'UNVERIFIED', 'VERIFICATION_ERROR', 'VERIFICATION_POSTPONED')),
      "transcode" varchar(16) not null check ("transcode" in ('queued', 'postponed', 'ready', 'failed')),
      "unverified" boolean not null default false,
      "track_name" varchar(255) null,
      "artist_name" varchar(255) null,
      "genre" varchar(64) null,
      "isrc" varchar(12) null,
      "duration_ms" integer not null check ("duration_ms" > 0),
      "file_name" varchar(255) not null,
      "content_type" varchar(255) not null,
      "container" varchar(64) not null,
      "size_bytes" bigint not null check ("size_bytes" > 0),
      "hls_key" bytea not null check (octet_length("hls_key") = 16),
      "hls_iv" bytea not null check (octet_length("hls_iv") = 16),
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      "verified_at" timestamptz null)`);
    this.addSql(`create index "song_uploader_idx" on "song" ("uploader_uuid", "created_at" desc)`);
    this.addSql(`create index "song_verified_idx" on "song" ("created_at" desc) where "status" = 'VERIFIED'`);
    this.addSql(`create table "transcode_job" (
      "song_id" uuid primary key references "song" ("id") on delete cascade,
      "state" varchar(16) not null check ("state" in ('queued', 'running', 'done', 'failed')),
      "attempts" integer not null default 0,
      "run_after" timestamptz not null,
      "locked_by" varchar(255) null,
      "locked_until" timestamptz null,
      "last_error" text null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null)`);
    this.addSql(`create index "transcode_job_pending_idx" on "transcode_job" ("run_after") where "state" in ('queued', 'running')`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "transcode_job"`);
    this.addSql(`drop table "song"`);
    this.addSql(`drop table "processed_event"`);
    this.addSql(`drop table "outbox_message"`);
  }
}
