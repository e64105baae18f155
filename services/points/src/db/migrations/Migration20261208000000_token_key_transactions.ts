import { Migration } from '@mikro-orm/migrations';

/**
 * An idempotency key whose write appended a transaction names it
 * (`transaction_id`) instead of storing the whole answer as JSON beside the
 * row that already holds it: a repeat reads the row back. Keys stored before
 * keep their `response`; kept refusals and purchases still use it.
 */
export class Migration20261208000000_token_key_transactions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "token_idempotency_key" add column if not exists "transaction_id" uuid`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "token_idempotency_key" drop column if exists "transaction_id"`);
  }
}
