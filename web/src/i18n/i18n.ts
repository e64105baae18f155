// Interface language (spec 002 §2): `?lang=` in the page address selects it,
// the choice is stored locally; en by default, also es. The page's `lang`
// follows it from start-up; dates, times, numbers and plurals go through Intl
// in the chosen locale (never the browser's default). English is in the entry
// script; another dictionary is a chunk of its own, loaded before the first
// render when it is the chosen one (main.tsx) or when it is picked.
import { useSyncExternalStore } from 'react';
import { en, type Strings } from './en';

export type Locale = 'en' | 'es';
const KEY = 'spinroom.locale';
const dictionaries: Partial<Record<Locale, Strings>> = { en };
const loaders: Record<Exclude<Locale, 'en'>, () => Promise<Strings>> = {
  es: () => import('./es').then((m) => m.es),
};

/** Loads a locale's dictionary once (en is always there). */
export async function loadLocale(which: Locale): Promise<void> {
  if (which === 'en' || dictionaries[which]) return;
  dictionaries[which] = await loaders[which]();
}

export function isLocale(value: unknown): value is Locale {
  return value === 'en' || value === 'es';
}

/** The locale from the address if it names one (and store it), else the stored one, else en. */
export function initialLocale(search: string, storage: Pick<Storage, 'getItem' | 'setItem'> | undefined): Locale {
  const fromQuery = new URLSearchParams(search).get('lang');
  if (isLocale(fromQuery)) {
    storage?.setItem(KEY, fromQuery);
    return fromQuery;
  }
  const stored = storage?.getItem(KEY);
  return isLocale(stored) ? stored : 'en';
}

let locale: Locale = typeof window === 'undefined' ? 'en' : initialLocale(window.location.search, safeStorage());
const listeners = new Set<() => void>();

function safeStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/** The chosen locale now (for code outside components; components use useLocale, which re-renders). */
export function currentLocale(): Locale {
  return locale;
}

/** The dictionary of a locale (the chosen one by default); English until another has loaded. */
export function stringsFor(which: Locale = locale): Strings {
  return dictionaries[which] ?? en;
}

/** The page says which language it is in (screen readers, hyphenation, translation tools): at start-up and on each change. */
export function applyPageLanguage(doc: Document = document): void {
  doc.documentElement.lang = locale;
}

/** Switches the language: at once when its dictionary is loaded, else once it is. */
export function setLocale(next: Locale): void {
  if (next !== 'en' && !dictionaries[next]) {
    void loadLocale(next).then(
      () => setLocale(next),
      () => undefined, // offline: the page stays in the language it is in
    );
    return;
  }
  locale = next;
  safeStorage()?.setItem(KEY, next);
  applyPageLanguage();
  for (const l of listeners) l();
}

export function useLocale(): Locale {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => locale,
    () => locale,
  );
}

/** The strings of the current locale, re-rendering when it changes. */
export function useT(): Strings {
  return stringsFor(useLocale());
}

// Intl's tags for each locale: the English strings are British (favourite, colour), so its dates are too.
const INTL_TAGS: Record<Locale, string> = { en: 'en-GB', es: 'es-ES' };

/** A value's name from one of the dictionary's tables (designs, statuses, ...), else `fallback` (the value itself). */
export function nameOf(names: Readonly<Record<string, string>>, value: string | undefined, fallback = value ?? ''): string {
  return (value === undefined ? undefined : (names as Partial<Record<string, string>>)[value]) ?? fallback;
}

/** A template's `{name}` placeholders filled in. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** A counted noun's forms by Intl.PluralRules category (`other` is required); `{count}` is the number, formatted. */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

/** One Intl object per key, made on first use (they are costly to make, cheap to use). */
function cached<T>(cache: Map<string, T>, key: string, make: () => T): T {
  let value = cache.get(key);
  if (value === undefined) {
    value = make();
    cache.set(key, value);
  }
  return value;
}
const pluralRules = new Map<string, Intl.PluralRules>();
const numberFormats = new Map<string, Intl.NumberFormat>();

/** "1 person", "2 people"; "1 persona", "2 personas": the form Intl.PluralRules picks for the count in the locale. */
export function plural(count: number, forms: PluralForms, which: Locale = locale): string {
  const rules = cached(pluralRules, which, () => new Intl.PluralRules(INTL_TAGS[which]));
  const numbers = cached(numberFormats, which, () => new Intl.NumberFormat(INTL_TAGS[which]));
  const form = forms[rules.select(count)] ?? forms.other;
  return fill(form, { count: numbers.format(count) });
}

/** How much of a moment to show: the day, the time of day, or both. */
export type DateStyle = 'date' | 'time' | 'dateTime';
const DATE_OPTIONS: Record<DateStyle, Intl.DateTimeFormatOptions> = {
  date: { dateStyle: 'medium' },
  time: { timeStyle: 'short' },
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
};
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** A date or time (a Date, an ISO string or epoch ms) as the locale writes it, in the browser's time zone. */
export function formatDate(value: Date | string | number, style: DateStyle = 'dateTime', which: Locale = locale): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return cached(dateFormats, `${which}|${style}`, () => new Intl.DateTimeFormat(INTL_TAGS[which], DATE_OPTIONS[style])).format(date);
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** A price in the currency's smallest unit (cents, as Stripe counts) as the locale writes it: 499 usd is "US$4.99" in es, "$4.99" in en. */
export function formatPrice(amount: number, currency: string, which: Locale = locale): string {
  const code = currency.toUpperCase();
  const format = cached(
    moneyFormats,
    `${which}|${code}`,
    () => new Intl.NumberFormat(INTL_TAGS[which], { style: 'currency', currency: code }),
  );
  return format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}
