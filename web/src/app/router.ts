// Hash routes, so the BFF serves one index.html for every screen:
// #/ lobby, #/room/<slug>, #/crates, #/crates/<uuid>, #/upload, #/profile[/<uuid>], #/settings;
// #/ranking, #/shop, #/shop/subscription (the shop, at its Subscription section), and the pages Stripe's checkout
// returns to: #/shop/paid/<checkout session id>, #/shop/subscribed, #/shop/cancelled;
// #/login (the sign-in screen's log-in tab), and the pages mailed links open: #/magic-link/<token>,
// #/reset-password/<token> (the token in the fragment, which browsers never send to a server);
// #/friends, #/profile/<uuid>/followers and /following, #/messages, #/messages/<uuid> (direct messages).
import { useSyncExternalStore } from 'react';
import { isPanelSection, type PanelSection } from '../api/panel';

export type Route =
  | { name: 'lobby' }
  | { name: 'bot' } // #/bot: the caller's bot
  | { name: 'adminUsers' } // #/admin/users: admins only
  | { name: 'admin'; section?: PanelSection } // #/admin[/<section>]: the admin panel, its sections by role
  | { name: 'communities' } // #/communities: the caller's communities, find one, upcoming events
  | { name: 'community'; slug: string } // #/communities/<slug or id>
  | { name: 'event'; slug: string } // #/events/<slug>
  | { name: 'room'; slug: string }
  | { name: 'crates'; crateUuid?: string }
  | { name: 'upload' }
  | { name: 'profile'; userUuid?: string }
  | { name: 'fans'; userUuid: string; list: 'followers' | 'following' }
  | { name: 'friends' }
  | { name: 'messages'; withUuid?: string }
  | { name: 'settings' }
  | { name: 'shop'; checkout?: 'paid' | 'subscribed' | 'cancelled'; sessionId?: string; section?: 'subscription' }
  | { name: 'ranking' }
  | { name: 'login' }
  | { name: 'magicLink'; token: string }
  | { name: 'resetPassword'; token: string };

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  switch (parts[0]) {
    case 'bot':
      return { name: 'bot' };
    case 'admin':
      if (parts[1] === 'users') return { name: 'adminUsers' };
      return isPanelSection(parts[1]) ? { name: 'admin', section: parts[1] } : { name: 'admin' };
    case 'communities':
      return parts[1] ? { name: 'community', slug: parts[1].toLowerCase() } : { name: 'communities' };
    case 'events':
      return parts[1] ? { name: 'event', slug: parts[1].toLowerCase() } : { name: 'communities' };
    case 'room':
      return parts[1] ? { name: 'room', slug: parts[1].toLowerCase() } : { name: 'lobby' };
    case 'crates':
      return { name: 'crates', crateUuid: parts[1] };
    case 'upload':
      return { name: 'upload' };
    case 'profile':
      if (parts[1] && (parts[2] === 'followers' || parts[2] === 'following')) return { name: 'fans', userUuid: parts[1], list: parts[2] };
      return { name: 'profile', userUuid: parts[1] };
    case 'friends':
      return { name: 'friends' };
    case 'messages':
      return { name: 'messages', withUuid: parts[1] };
    case 'settings':
      return { name: 'settings' };
    case 'ranking':
      return { name: 'ranking' };
    case 'shop':
      if (parts[1] === 'paid') return { name: 'shop', checkout: 'paid', sessionId: parts[2] };
      if (parts[1] === 'subscribed') return { name: 'shop', checkout: 'subscribed' };
      if (parts[1] === 'subscription') return { name: 'shop', section: 'subscription' };
      return parts[1] === 'cancelled' ? { name: 'shop', checkout: 'cancelled' } : { name: 'shop' };
    case 'login':
      return { name: 'login' };
    case 'magic-link':
      return parts[1] ? { name: 'magicLink', token: parts[1] } : { name: 'login' };
    case 'reset-password':
      return parts[1] ? { name: 'resetPassword', token: parts[1] } : { name: 'login' };
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
    case 'admin':
      return route.section ? `#/admin/${route.section}` : '#/admin';
    case 'communities':
      return '#/communities';
    case 'community':
      return `#/communities/${encodeURIComponent(route.slug)}`;
    case 'event':
      return `#/events/${encodeURIComponent(route.slug)}`;
    case 'room':
      return `#/room/${encodeURIComponent(route.slug)}`;
    case 'crates':
      return route.crateUuid ? `#/crates/${route.crateUuid}` : '#/crates';
    case 'upload':
      return '#/upload';
    case 'profile':
      return route.userUuid ? `#/profile/${route.userUuid}` : '#/profile';
    case 'fans':
      return `#/profile/${route.userUuid}/${route.list}`;
    case 'friends':
      return '#/friends';
    case 'messages':
      return route.withUuid ? `#/messages/${route.withUuid}` : '#/messages';
    case 'settings':
      return '#/settings';
    case 'ranking':
      return '#/ranking';
    case 'shop':
      if (route.checkout === 'paid') return route.sessionId ? `#/shop/paid/${encodeURIComponent(route.sessionId)}` : '#/shop/paid';
      if (route.checkout === 'subscribed') return '#/shop/subscribed';
      if (route.checkout === 'cancelled') return '#/shop/cancelled';
      return route.section === 'subscription' ? '#/shop/subscription' : '#/shop';
    case 'login':
      return '#/login';
    case 'magicLink':
      return `#/magic-link/${encodeURIComponent(route.token)}`;
    case 'resetPassword':
      return `#/reset-password/${encodeURIComponent(route.token)}`;
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
