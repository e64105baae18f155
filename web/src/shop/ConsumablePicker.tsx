// Using a consumable in a room (issue 16): a button beside the chat opens the
// consumables with their cost and the balance; picking one buys it for this
// room with the balance as last seen (balanceUnmodifiedSince), and everyone in
// the room sees it in the chat. A stale or short balance is said plainly,
// with the balance as it is now and the way to the shop.
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { href } from '../app/router';
import { ErrorNote } from '../app/ErrorNote';
import { FillNodes } from '../i18n/FillNodes';
import { fill, useLocale, useT } from '../i18n/i18n';
import { ConsumableIcon } from './ConsumableIcon';
import { CoinIcon } from './TokenBalance';
import { tokenCount, useConsumables, usePurchase } from './useTokens';
import './shop.css';

/** How long what a purchase did stays said beside the button. */
export const SAID_FOR_MS = 8000;

export function ConsumablePicker({ roomUuid }: { roomUuid: string }) {
  const t = useT();
  const locale = useLocale();
  const [open, setOpen] = useState(false);
  const consumables = useConsumables(open);
  const { account, buy, outcome, pending, clear } = usePurchase(roomUuid, locale);
  const opener = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const id = useId();
  const close = () => {
    setOpen(false);
    opener.current?.focus();
  };
  // A purchase done closes the list; what it did stays said beside the button.
  useEffect(() => {
    if (!outcome?.ok) return;
    setOpen(false);
    // Said for a while (and to screen readers at once), then out of the way of the chat.
    const timer = setTimeout(clear, SAID_FOR_MS);
    return () => clearTimeout(timer);
  }, [outcome, clear]);
  // Opened: the focus goes into the list.
  useEffect(() => {
    if (open && consumables.data) panel.current?.querySelector<HTMLElement>('button:not(:disabled), a')?.focus();
  }, [open, consumables.data]);
  const onKey = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    close();
  };

  return (
    <div className="consumable-picker">
      <button
        ref={opener}
        type="button"
        aria-expanded={open}
        aria-controls={open ? `${id}-panel` : undefined}
        onClick={() => {
          clear();
          setOpen(!open);
        }}
      >
        <ConsumableIcon consumable={{ id: 'use' }} size={20} /> <span className="picker-label">{t.useConsumable}</span>
      </button>
      {outcome?.ok && (
        <p role="status" className="small">
          {fill(t.consumableUsed, { name: outcome.consumable.name, balance: tokenCount(outcome.purchase.lastTokenBalance, locale) })}
        </p>
      )}
      {open && (
        <div
          id={`${id}-panel`}
          ref={panel}
          className="consumable-panel card stack"
          role="dialog"
          aria-labelledby={`${id}-title`}
          aria-describedby={`${id}-hint`}
          onKeyDown={onKey}
        >
          <div className="row spread">
            <h3 id={`${id}-title`} className="consumable-title">
              {t.useConsumableTitle}
            </h3>
            <button type="button" className="icon" aria-label={t.close} onClick={close}>
              ×
            </button>
          </div>
          <p id={`${id}-hint`} className="muted small">
            {t.useConsumableHint}
          </p>
          <p className="balance-line">
            <span>{t.tokenBalance}: </span>
            <CoinIcon />
            <strong data-testid="picker-balance">{account.data ? tokenCount(account.data.balance, locale) : '…'}</strong>{' '}
            <a href={href({ name: 'shop' })}>{t.buyTokens}</a>
          </p>
          <ErrorNote error={consumables.error ?? account.error} />
          {consumables.data?.length === 0 && <p className="muted">{t.noConsumables}</p>}
          <ul className="consumable-options">
            {(consumables.data ?? []).map((c) => (
              <li key={c.id}>
                <button type="button" disabled={pending} onClick={() => buy(c)}>
                  <ConsumableIcon consumable={c} size={28} />
                  {/* Its name is the whole sentence ("Use Confetti for 25 tokens"); the name and the cost show. */}
                  <FillNodes
                    template={t.useFor}
                    literalClass="sr-only"
                    values={{
                      name: <span className="name">{c.name}</span>,
                      cost: <span className="cost">{tokenCount(c.tokenCost, locale)}</span>,
                    }}
                  />
                </button>
              </li>
            ))}
          </ul>
          {outcome && !outcome.ok && (
            <div className="error" role="alert">
              <p>{outcome.message}</p>
              {outcome.short && <a href={href({ name: 'shop' })}>{t.buyTokens}</a>}
            </div>
          )}
        </div>
      )}
    </div>
  );
}
