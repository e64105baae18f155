// Interface language (spec 002 §2): `?lang=` in the page address selects it,
// the choice is stored locally; en by default, also es.
import { useSyncExternalStore } from 'react';
import { en, type Strings } from './en';
import { es } from './es';

export type Locale = 'en' | 'es';
const KEY = 'spinroom.locale';
const dictionaries: Record<Locale, Strings> = { en, es };

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

export function setLocale(next: Locale) {
  locale = next;
  safeStorage()?.setItem(KEY, next);
  document.documentElement.lang = next;
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
  return dictionaries[useLocale()];
}
