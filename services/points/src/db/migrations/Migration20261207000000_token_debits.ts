import { Migration } from '@mikro-orm/migrations';

/**
 * Debits (services/points/README.md, Tokens): a refunded purchase takes its
 * tokens back, at most what the account has available; the `debit` row adds
 * to the account's `spent`, so the balance check still holds.
 */
export class Migration20261207000000_token_debits extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "token_transaction" drop constraint if exists "token_transaction_type_check"`);
    this.addSql(`alter table "token_transaction" add constraint "token_transaction_type_check"
      check ("type" in ('credit', 'hold', 'commit', 'voided', 'debit'))`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "token_transaction" drop constraint if exists "token_transaction_type_check"`);
    this.addSql(`alter table "token_transaction" add constraint "token_transaction_type_check"
      check ("type" in ('credit', 'hold', 'commit', 'voided'))`);
  }
}
