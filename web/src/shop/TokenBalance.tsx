// The header's token balance (issue 16): for people signed in, a link to the
// shop that reads "120 tokens"; it follows the account's query, which every
// purchase and the checkout's return page read again.
import { href } from '../app/router';
import { fill, useLocale, useT } from '../i18n/i18n';
import { tokenCount, useTokenAccount } from './useTokens';
import './shop.css';

export function TokenBalance() {
  const t = useT();
  const locale = useLocale();
  const account = useTokenAccount();
  const balance = account.data?.balance;
  const text = balance === undefined ? t.shop : tokenCount(balance, locale);
  return (
    <a
      className="token-balance button"
      href={href({ name: 'shop' })}
      data-testid="token-balance"
      title={balance === undefined ? undefined : fill(t.tokenBalanceOf, { balance: text })}
    >
      <CoinIcon />
      {text}
    </a>
  );
}

/** A coin, drawn (decorative: the text says how many). */
export function CoinIcon({ size = 18 }: { size?: number }) {
  return (
    <svg className="coin" width={size} height={size} viewBox="0 0 20 20" aria-hidden="true" focusable="false">
      <circle cx="10" cy="10" r="9" fill="#f5b301" stroke="#a86b00" strokeWidth="1.5" />
      <circle cx="10" cy="10" r="5.5" fill="none" stroke="#a86b00" strokeWidth="1.2" />
      <path d="M10 6.5v7" stroke="#a86b00" strokeWidth="1.4" strokeLinecap="round" />
    </svg>
  );
}
