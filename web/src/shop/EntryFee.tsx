// Paid rooms (issue 16): a room with an entryFee charges it at the feed's
// joinRoom, once per person, past their free entries (services/room/README.md,
// Paid rooms). Before someone first enters such a room here, the room says what
// it costs beside their balance and waits for their yes (remembered in this
// browser); when joinRoom refuses (a short balance, no token account, a guest
// past the free entries), the room says why with the fee and the balance, the
// way to the shop (or to sign up), and tries again on request.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ERROR_CODES } from '../api/errors';
import { keys } from '../api/keys';
import type { Room } from '../api/types';
import { href } from '../app/router';
import { fill, plural, useLocale, useT } from '../i18n/i18n';
import { openSignIn } from '../session/signInFrom';
import { CoinIcon } from './TokenBalance';
import { tokenCount, useTokenAccount } from './useTokens';
import './shop.css';

/** joinRoom's refusals the entry prompt answers. */
export const ENTRY_FEE_CODES: ReadonlySet<string> = new Set([
  ERROR_CODES.roomEntryFeeShort,
  ERROR_CODES.roomEntryFeeGuest,
  ERROR_CODES.tokenAccountMissing,
]);

const KEY = 'spinroom.paidRoomsAccepted';

function accepted(): string[] {
  try {
    const value: unknown = JSON.parse(window.localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** Whether to ask before entering: a room with a fee, someone signed in who does not own it and has not said yes here before. */
export function asksEntryFee(
  room: Pick<Room, 'uuid' | 'ownerUuid'> & { entryFee?: number },
  me: { userUuid: string | null; isLoggedIn: boolean },
): boolean {
  return (room.entryFee ?? 0) > 0 && me.isLoggedIn && room.ownerUuid !== me.userUuid && !accepted().includes(room.uuid);
}

/** Remembers the yes (the last 200 rooms). */
export function acceptEntryFee(roomUuid: string): void {
  try {
    window.localStorage.setItem(KEY, JSON.stringify([...accepted().filter((x) => x !== roomUuid), roomUuid].slice(-200)));
  } catch {
    // Without storage the room asks again next time.
  }
}

function FeeLines({ room }: { room: Room }) {
  const t = useT();
  const locale = useLocale();
  const account = useTokenAccount();
  const fee = room.entryFee ?? 0;
  const free = room.freeEntries ?? 0;
  return (
    <>
      <p>{fill(t.entryFeeCost, { room: room.name, fee: tokenCount(fee, locale) })}</p>
      {free > 0 && <p>{plural(free, t.entryFeeFreeEntries, locale)}</p>}
      {account.data && (
        <p className="balance-line">
          <span>{t.tokenBalance}: </span>
          <CoinIcon />
          <strong data-testid="entry-balance">{tokenCount(account.data.balance, locale)}</strong>
        </p>
      )}
    </>
  );
}

/** Before the first entry into a paid room: the fee, the balance, and Enter or Back. */
export function EntryFeeConfirm({ room, onEnter }: { room: Room; onEnter: () => void }) {
  const t = useT();
  const locale = useLocale();
  const account = useTokenAccount();
  const fee = room.entryFee ?? 0;
  const short = account.data !== undefined && account.data.balance < fee && (room.freeEntries ?? 0) === 0;
  return (
    <section className="card stack narrow entry-fee" aria-labelledby="entry-fee-title">
      <h1 id="entry-fee-title">{t.entryFeeTitle}</h1>
      <FeeLines room={room} />
      {short && (
        <p className="error">
          {fill(t.tokenBalanceShort, { available: tokenCount(account.data?.balance ?? 0, locale), needed: tokenCount(fee, locale) })}{' '}
          <a href={href({ name: 'shop' })}>{t.buyTokens}</a>
        </p>
      )}
      <div className="row">
        <button
          type="button"
          className="primary"
          onClick={() => {
            acceptEntryFee(room.uuid);
            onEnter();
          }}
        >
          {t.entryFeeEnter}
        </button>
        <a className="button" href={href({ name: 'lobby' })}>
          {t.backToLobby}
        </a>
      </div>
    </section>
  );
}

/** joinRoom refused the entry: why, the fee and the balance (read again), and the way on. */
export function EntryFeeRefused({ room, code, message, onRetry }: { room: Room; code: string; message: string; onRetry: () => void }) {
  const t = useT();
  const client = useQueryClient();
  const guest = code === ERROR_CODES.roomEntryFeeGuest;
  useEffect(() => {
    if (!guest) void client.invalidateQueries({ queryKey: keys.tokenAccount });
  }, [client, guest]);
  return (
    <section className="card stack narrow entry-fee" aria-labelledby="entry-fee-title">
      <h1 id="entry-fee-title">{t.entryFeeTitle}</h1>
      <p className="error" role="alert">
        {message}
      </p>
      {!guest && <FeeLines room={room} />}
      <div className="row">
        {guest ? (
          <button
            type="button"
            className="primary"
            onClick={() => {
              client.clear();
              openSignIn('signup');
            }}
          >
            {t.signUp}
          </button>
        ) : (
          <>
            <a className="button" href={href({ name: 'shop' })}>
              {t.buyTokens}
            </a>
            <button type="button" className="primary" onClick={onRetry}>
              {t.entryFeeTryAgain}
            </button>
          </>
        )}
        <a className="button" href={href({ name: 'lobby' })}>
          {t.backToLobby}
        </a>
      </div>
    </section>
  );
}
