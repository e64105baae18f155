import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { TokenServiceClient } from '@spinroom/contracts/points/v1/tokens';
import { AppError, ERROR_CODES, TokenWriter, type Logger, type PromiseClient, type ServiceTokenSource } from '@spinroom/platform';
import { decideEntry, entryKeys, feeApplies, holdRefusal, type Entrant, type RoomFee } from '../domain/entry-fees.js';

/** The token ledger as the entry fee uses it (the points service, called with the room service's own token). */
export interface TokenLedger {
  /** Holds `amount` from the user's account; answers the hold's id. */
  hold(userUuid: string, amount: number, idempotencyKey: string, reference: string): Promise<string>;
  commit(holdId: string, idempotencyKey: string): Promise<void>;
  void(holdId: string, idempotencyKey: string, reason: string): Promise<void>;
  /** Credits the user's account (made first when they have none). */
  credit(userUuid: string, amount: number, idempotencyKey: string, reason: string, reference: string): Promise<void>;
}

/** How long an entry's hold reserves the fee: the join takes milliseconds; a crashed one releases it by itself. */
export const ENTRY_HOLD_TTL_SECONDS = 120;

/**
 * The points service's TokenService as the ledger of entry fees: the holds,
 * commits and credits go through the platform's TokenWriter, so the writes
 * of the joins of one moment share one WriteTokens call.
 */
export function pointsLedger(points: PromiseClient<TokenServiceClient>, serviceToken: ServiceTokenSource): TokenLedger {
  const writer = new TokenWriter(points, () => serviceToken.token(), { deadlineMs: 3_000 });
  return {
    async hold(userUuid, amount, idempotencyKey, reference) {
      const answer = await writer.hold({ accountId: '', userUuid, amount, ttlSeconds: ENTRY_HOLD_TTL_SECONDS, reference, idempotencyKey });
      return answer.transaction.id;
    },
    async commit(holdId, idempotencyKey) {
      await writer.commit({ holdId, amount: 0, idempotencyKey });
    },
    async void(holdId, idempotencyKey, reason) {
      await writer.void({ holdId, reason, idempotencyKey });
    },
    async credit(userUuid, amount, idempotencyKey, reason, reference) {
      const request = { accountId: '', userUuid, amount, reason, reference, idempotencyKey };
      try {
        await writer.credit(request);
      } catch (error) {
        if (!(error instanceof AppError) || error.status !== 404) throw error;
        // An owner without an account yet (signed up before the points service, or their event is on its way).
        await points.createTokenAccount({ userUuid }, { token: await serviceToken.token(), deadlineMs: 3_000 });
        await writer.credit(request);
      }
    },
  };
}

const holdEnded = (error: unknown) => error instanceof AppError && error.code === ERROR_CODES.tokenHoldEnded;
const shortBalance = (error: unknown) => error instanceof AppError && error.status === 402;

interface EntryRow {
  entries: number;
  charge_attempt: number;
  paid_at: Date | null;
}

type Outcome<T> = { value: T } | { error: unknown };

/**
 * Entering a paid room (domain/entry-fees.ts has the rules). The user's row
 * of `room_entry` is locked for the whole entry, so two joins of the same
 * user to the same room (a retry, another tab) enter one after the other: the
 * second sees the first's payment. A charge is hold, join, commit, then the
 * owner's credit, each with a key derived from (room, user, attempt); the
 * attempt grows only when a charge ended without payment (a join that failed,
 * a hold refused for a short balance), so a join retried after a crash
 * replays the same ledger writes rather than charging twice.
 */
export class EntryFees {
  constructor(
    private readonly orm: MikroORM,
    private readonly ledger: TokenLedger,
    private readonly logger: Logger,
  ) {}

  /**
   * Runs `join` as the entrant's entry: counted, free or charged as the
   * rules say. `undo` takes back a join that succeeded when its payment
   * could then not be completed (the points service failed in between).
   */
  async enter<T>(roomUuid: string, room: RoomFee, who: Entrant, join: () => Promise<T>, undo: () => Promise<void>): Promise<T> {
    if (feeApplies(room, who)) return join();
    const outcome = await this.orm.em.fork().transactional(async (em): Promise<Outcome<T>> => {
      const row = await this.lock(em, roomUuid, who.userUuid);
      const decision = decideEntry(room, who, { entries: row.entries, paid: row.paid_at !== null });
      if (decision.kind !== 'charge') {
        const value = await join(); // a failed join counts no entry (the transaction rolls back)
        await this.update(em, roomUuid, who.userUuid, `"entries" = "entries" + 1`);
        return { value };
      }
      return this.charge(em, roomUuid, who.userUuid, decision.amount, decision.ownerUuid, row.charge_attempt, join, undo);
    });
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  }

  /** Entries counted and whether the fee was paid (tests, the README's figures). */
  async record(roomUuid: string, userUuid: string): Promise<{ entries: number; paid: boolean; attempt: number } | null> {
    const [row] = await this.orm.em
      .fork()
      .execute<EntryRow[]>(`select "entries", "charge_attempt", "paid_at" from "room_entry" where "room_uuid" = ? and "user_uuid" = ?`, [
        roomUuid,
        userUuid,
      ]);
    return row ? { entries: row.entries, paid: row.paid_at !== null, attempt: row.charge_attempt } : null;
  }

  private async charge<T>(
    em: EntityManager,
    roomUuid: string,
    userUuid: string,
    fee: number,
    ownerUuid: string,
    firstAttempt: number,
    join: () => Promise<T>,
    undo: () => Promise<void>,
  ): Promise<Outcome<T>> {
    let attempt = firstAttempt;
    let keys = entryKeys(roomUuid, userUuid, attempt);
    let holdId: string;
    try {
      holdId = await this.ledger.hold(userUuid, fee, keys.hold, keys.reference);
    } catch (error) {
      // Refused: nothing was held. A short balance is its key's answer in the ledger, so the
      // next join (after a top-up) holds under the next attempt's keys; other refusals keep no key.
      if (!shortBalance(error)) throw holdRefusal(error, fee);
      await this.update(em, roomUuid, userUuid, `"charge_attempt" = ?`, [attempt + 1]);
      return { error: holdRefusal(error, fee) };
    }
    let value: T;
    try {
      value = await join();
    } catch (error) {
      return { error: (await this.release(em, roomUuid, userUuid, fee, ownerUuid, attempt, holdId)) ?? error };
    }
    try {
      try {
        await this.ledger.commit(holdId, keys.commit);
      } catch (error) {
        if (!holdEnded(error)) throw error;
        // The hold was an earlier, crashed attempt's (the same keys) and ran out of time: a fresh one.
        attempt += 1;
        keys = entryKeys(roomUuid, userUuid, attempt);
        await this.update(em, roomUuid, userUuid, `"charge_attempt" = ?`, [attempt]);
        holdId = await this.ledger.hold(userUuid, fee, keys.hold, keys.reference).catch((refused: unknown) => {
          throw holdRefusal(refused, fee);
        });
        await this.ledger.commit(holdId, keys.commit);
      }
      await this.ledger.credit(ownerUuid, fee, keys.credit, 'room entry fee', keys.reference);
    } catch (error) {
      // Not paid: the join is taken back. The attempt stays, so a retry replays what was written.
      await undo().catch((failed: unknown) =>
        this.logger.error({ err: failed, roomUuid, userUuid }, 'could not take back an unpaid entry'),
      );
      return { error };
    }
    await this.paid(em, roomUuid, userUuid, fee, holdId);
    return { value };
  }

  /**
   * The join failed: its hold is voided and the next charge uses new keys. A
   * hold that had ended already was an earlier attempt's: committed (its
   * commit replays, so the fee was paid and the owner is credited) or expired.
   * Answers an error to raise instead of the join's, if any.
   */
  private async release(
    em: EntityManager,
    roomUuid: string,
    userUuid: string,
    fee: number,
    ownerUuid: string,
    attempt: number,
    holdId: string,
  ): Promise<unknown> {
    const keys = entryKeys(roomUuid, userUuid, attempt);
    try {
      await this.ledger.void(holdId, keys.void, 'room entry failed');
    } catch (error) {
      if (!holdEnded(error)) {
        // The points service did not answer: the hold expires by itself; a retry replays it.
        this.logger.warn({ err: error, roomUuid, userUuid, holdId }, 'could not void the hold of a failed room entry');
        return undefined;
      }
      try {
        await this.ledger.commit(holdId, keys.commit);
        await this.ledger.credit(ownerUuid, fee, keys.credit, 'room entry fee', keys.reference);
        await this.paid(em, roomUuid, userUuid, fee, holdId, false);
        return undefined;
      } catch (committed) {
        if (!holdEnded(committed)) return committed;
      }
    }
    await this.update(em, roomUuid, userUuid, `"charge_attempt" = ?`, [attempt + 1]);
    return undefined;
  }

  private async paid(em: EntityManager, roomUuid: string, userUuid: string, fee: number, holdId: string, counted = true): Promise<void> {
    await this.update(
      em,
      roomUuid,
      userUuid,
      `"paid_at" = now(), "fee_paid" = ?, "hold_id" = ?${counted ? `, "entries" = "entries" + 1` : ''}`,
      [fee, holdId],
    );
  }

  private async lock(em: EntityManager, roomUuid: string, userUuid: string): Promise<EntryRow> {
    await em.execute(`insert into "room_entry" ("room_uuid", "user_uuid") values (?, ?) on conflict do nothing`, [roomUuid, userUuid]);
    const [row] = await em.execute<EntryRow[]>(
      `select "entries", "charge_attempt", "paid_at" from "room_entry" where "room_uuid" = ? and "user_uuid" = ? for update`,
      [roomUuid, userUuid],
    );
    return row!;
  }

  private async update(em: EntityManager, roomUuid: string, userUuid: string, set: string, params: unknown[] = []): Promise<void> {
    await em.execute(`update "room_entry" set ${set}, "updated_at" = now() where "room_uuid" = ? and "user_uuid" = ?`, [
      ...params,
      roomUuid,
      userUuid,
    ]);
  }
}
