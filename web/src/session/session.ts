// The core session (spec 002 §3, §4): token, login flag, user uuid and audio
// quality, persisted locally (only those four). A token of kind `user` is a
// logged-in session; a guest token browses; anything else resets quality.
import { useSyncExternalStore } from 'react';

export type AudioQuality = 'low' | 'medium' | 'high';

export interface Session {
  token: string | null;
  userUuid: string | null;
  isLoggedIn: boolean;
  audioQuality: AudioQuality;
  /** Spec 002's core session: the Apple Music storefront (default us). */
  appleStorefrontId: string;
}

const KEY = 'spinroom.session';
const EMPTY: Session = { token: null, userUuid: null, isLoggedIn: false, audioQuality: 'medium', appleStorefrontId: 'us' };

function load(): Session {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return EMPTY;
    const parsed = JSON.parse(raw) as Partial<Session>;
    return { ...EMPTY, ...parsed };
  } catch {
    return EMPTY;
  }
}

let current: Session = typeof localStorage === 'undefined' ? EMPTY : load();
const listeners = new Set<() => void>();

function save(next: Session) {
  current = next;
  try {
    localStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    // private mode: the session lives in memory only
  }
  for (const listener of listeners) listener();
}

export const session = {
  get: (): Session => current,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** A new token: logged in only when its kind is `user`. */
  signIn(token: string, userUuid: string, kind: 'user' | 'guest' | 'bot') {
    const isLoggedIn = kind === 'user';
    save({ ...current, token, userUuid, isLoggedIn, audioQuality: isLoggedIn ? current.audioQuality : 'medium' });
  },
  signOut() {
    save({ ...EMPTY });
  },
  setAudioQuality(audioQuality: AudioQuality) {
    save({ ...current, audioQuality });
  },
};

export function useSession(): Session {
  return useSyncExternalStore(session.subscribe, session.get, session.get);
}

/** The token's claims, read without verifying (the server verifies). */
export function tokenClaims(token: string): { sub?: string; role?: string } {
  try {
    const payload = token.split('.')[1] ?? '';
    return JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { sub?: string; role?: string };
  } catch {
    return {};
  }
}
