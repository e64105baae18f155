import { Migration } from '@mikro-orm/migrations';

/**
 * Search whose cost does not grow with the catalogue (issue 21): a precomputed
 * `popularity`, indexes that hand out candidates best first with an early
 * limit (exact title, exact artist, words in popularity order), and the known
 * words with their one-letter deletions for typo tolerance, learnt by a trigger.
 * The trigram index on the whole text (a scan of every similar row) goes.
 */
export class Migration20261202000000_search_at_scale extends Migration {
  override async up(): Promise<void> {
    // A constant default: no table rewrite.
    this.addSql(`alter table "song" add column "popularity" integer not null default 0`);
    // Words in popularity order: a common word's best songs are the first index entries that match,
    // read without the table (the vector, explicit and status ride in the index).
    this.addSql(
      `create index "song_popularity_search_idx" on "song" ("popularity" desc, "id") include ("search_vector", "explicit", "status")`,
    );
    this.addSql(`create index "song_title_popularity_idx" on "song" (lower("track_name"), "popularity" desc)`);
    this.addSql(`create index "song_artist_popularity_idx" on "song" (lower("artist_name"), "popularity" desc)`);
    this.addSql(`drop index if exists "song_search_text_trgm_idx"`);
    this.addSql(`create table "song_word" ("word" text collate "C" primary key)`);
    this.addSql(`create table "song_word_variant" (
      "variant" text collate "C" not null,
      "word" text collate "C" not null,
      primary key ("variant", "word"))`);
    // A new word is learnt with its variants: itself and each one-letter deletion (a typo one edit
    // away shares one). In word order, so two writers of the same new words cannot deadlock.
    this.addSql(`create function "song_words_learn"() returns trigger language plpgsql as $$
      begin
        with added as (
          insert into "song_word" ("word")
            select w from unnest(tsvector_to_array(new."search_vector")) w where length(w) <= 64 order by w
            on conflict do nothing
            returning "word")
        insert into "song_word_variant" ("variant", "word")
          select v, a."word" from added a
            cross join lateral (
              select a."word" as v
              union
              select left(a."word", i - 1) || substr(a."word", i + 1) from generate_series(1, length(a."word")) i) d
          where length(a."word") >= 3
          order by 1, 2
          on conflict do nothing;
        return null;
      end $$`);
    this.addSql(`create trigger "song_words_learn" after insert or update of "track_name", "artist_name", "album_name", "genre"
      on "song" for each row execute function "song_words_learn"()`);
    this.addSql(`insert into "song_word" ("word")
      select distinct w from "song", unnest(tsvector_to_array("search_vector")) w where length(w) <= 64`);
    this.addSql(`insert into "song_word_variant" ("variant", "word")
      select distinct v, w."word" from "song_word" w
        cross join lateral (
          select w."word" as v
          union
          select left(w."word", i - 1) || substr(w."word", i + 1) from generate_series(1, length(w."word")) i) d
      where length(w."word") >= 3`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger "song_words_learn" on "song"`);
    this.addSql(`drop function "song_words_learn"()`);
    this.addSql(`drop table "song_word_variant"`);
    this.addSql(`drop table "song_word"`);
    this.addSql(`drop index "song_artist_popularity_idx"`);
    this.addSql(`drop index "song_title_popularity_idx"`);
    this.addSql(`drop index "song_popularity_search_idx"`);
    this.addSql(`alter table "song" drop column "popularity"`);
    this.addSql(`create index "song_search_text_trgm_idx" on "song" using gin ("search_text" gin_trgm_ops)`);
  }
}
