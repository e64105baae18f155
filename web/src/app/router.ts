// Hash routes, so the BFF serves one index.html for every screen:
// #/ lobby, #/room/<slug>, #/crates, #/crates/<uuid>, #/upload, #/profile[/<uuid>], #/settings.
import { useSyncExternalStore } from 'react';

export type Route =
  | { name: 'lobby' }
  | { name: 'bot' } // #/bot: the caller's bot
  | { name: 'adminUsers' } // #/admin/users: admins only
  | { name: 'room'; slug: string }
  | { name: 'crates'; crateUuid?: string }
  | { name: 'upload' }
  | { name: 'profile'; userUuid?: string }
  | { name: 'settings' };

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  switch (parts[0]) {
    case 'bot':
      return { name: 'bot' };
    case 'admin':
      return parts[1] === 'users' ? { name: 'adminUsers' } : { name: 'lobby' };
    case 'room':
      return parts[1] ? { name: 'room', slug: parts[1].toLowerCase() } : { name: 'lobby' };
    case 'crates':
      return { name: 'crates', crateUuid: parts[1] };
    case 'upload':
      return { name: 'upload' };
    case 'profile':
      return { name: 'profile', userUuid: parts[1] };
    case 'settings':
      return { name: 'settings' };
    default:
      return { name: 'lobby' };
  }
}

export function href(route: Route): string {
  switch (route.name) {
    case 'lobby':
      return '#/';
    case 'bot':
      return '#/bot';
    case 'adminUsers':
      return '#/admin/users';
    case 'room':
      return `#/room/${encodeURIComponent(route.slug)}`;
    case 'crates':
      return route.crateUuid ? `#/crates/${route.crateUuid}` : '#/crates';
    case 'upload':
      return '#/upload';
    case 'profile':
      return route.userUuid ? `#/profile/${route.userUuid}` : '#/profile';
    case 'settings':
      return '#/settings';
  }
}

export function navigate(route: Route) {
  window.location.hash = href(route);
}

const subscribe = (listener: () => void) => {
  window.addEventListener('hashchange', listener);
  return () => window.removeEventListener('hashchange', listener);
};

export function useRoute(): Route {
  const hash = useSyncExternalStore(
    subscribe,
    () => window.location.hash,
    () => '',
  );
  return parseRoute(hash);
}
