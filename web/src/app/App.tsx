import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { panelSectionsOf } from '../api/panel';
import { BotScreen } from '../bot/BotScreen';
import { CratesScreen } from '../crates/CratesScreen';
import { setLocale, useLocale, useT } from '../i18n/i18n';
import { ProfileScreen } from '../profile/ProfileScreen';
import { SettingsScreen } from '../profile/SettingsScreen';
import { MessagesNavLink } from '../messages/MessagesNavLink';
import { LobbyScreen } from '../rooms/LobbyScreen';
import { RoomScreen } from '../rooms/RoomScreen';
import { AuthScreen } from '../session/AuthScreen';
import { MagicLinkLanding, ResetPasswordScreen } from '../session/MailedLinkPages';
import { VerifyEmailCard } from '../session/VerifyEmailCard';
import { useSession } from '../session/session';
import { TokenBalance } from '../shop/TokenBalance';
import { openSignIn } from '../session/signInFrom';
import { UploadScreen } from '../upload/UploadScreen';
import { href, useRoute } from './router';

// The shop is its own chunk, loaded when it opens (the first load's budget: web/README.md).
const ShopScreen = lazy(() => import('../shop/ShopScreen').then((m) => ({ default: m.ShopScreen })));
// The admin panel is for staff only: its own chunk; so are the community and event pages.
const AdminPanel = lazy(() => import('../admin/AdminPanel').then((m) => ({ default: m.AdminPanel })));
const CommunitiesScreen = lazy(() => import('../communities/CommunitiesScreen').then((m) => ({ default: m.CommunitiesScreen })));
const CommunityScreen = lazy(() => import('../communities/CommunityScreen').then((m) => ({ default: m.CommunityScreen })));
const EventScreen = lazy(() => import('../communities/EventScreen').then((m) => ({ default: m.EventScreen })));
const RankingScreen = lazy(() => import('../ranking/RankingScreen').then((m) => ({ default: m.RankingScreen })));
// Friends, fans and direct messages: their own chunks too.
const FriendsScreen = lazy(() => import('../social/FriendsScreen').then((m) => ({ default: m.FriendsScreen })));
const FansScreen = lazy(() => import('../social/FansScreen').then((m) => ({ default: m.FansScreen })));
const MessagesScreen = lazy(() => import('../messages/MessagesScreen').then((m) => ({ default: m.MessagesScreen })));

export function App() {
  const s = useSession();
  const route = useRoute();
  const t = useT();
  const locale = useLocale();
  const queryClient = useQueryClient();
  if (route.name === 'magicLink') return <MagicLinkLanding token={route.token} />;
  if (route.name === 'resetPassword') return <ResetPasswordScreen token={route.token} />;
  if (!s.token) return <AuthScreen />;
  const panel = panelSectionsOf(s.token).length > 0;
  const logOut = () => {
    openSignIn('signup');
    queryClient.clear();
    window.location.hash = '#/';
  };
  // A guest signs up or logs in from the page they are on, and comes back to it.
  const signInFromHere = (mode: 'signup' | 'login') => {
    queryClient.clear();
    openSignIn(mode);
  };
  return (
    <div className="app">
      <header className="topbar">
        <a className="brand" href="#/">
          {t.appName}
        </a>
        <nav aria-label={t.mainNav}>
          <a href={href({ name: 'lobby' })} aria-current={route.name === 'lobby' ? 'page' : undefined}>
            {t.lobby}
          </a>
          {s.isLoggedIn && (
            <a href={href({ name: 'crates' })} aria-current={route.name === 'crates' ? 'page' : undefined}>
              {t.crates}
            </a>
          )}
          {s.isLoggedIn && (
            <a href={href({ name: 'upload' })} aria-current={route.name === 'upload' ? 'page' : undefined}>
              {t.upload}
            </a>
          )}
          <a href={href({ name: 'ranking' })} aria-current={route.name === 'ranking' ? 'page' : undefined}>
            {t.ranking}
          </a>
          {s.isLoggedIn && (
            <a href={href({ name: 'shop' })} aria-current={route.name === 'shop' ? 'page' : undefined}>
              {t.shop}
            </a>
          )}
          {s.isLoggedIn && (
            <a href={href({ name: 'profile' })} aria-current={route.name === 'profile' && !route.userUuid ? 'page' : undefined}>
              {t.profile}
            </a>
          )}
          {s.isLoggedIn && (
            <a href={href({ name: 'friends' })} aria-current={route.name === 'friends' ? 'page' : undefined}>
              {t.friends}
            </a>
          )}
          {s.isLoggedIn && <MessagesNavLink current={route.name === 'messages'} />}
          <a href={href({ name: 'settings' })} aria-current={route.name === 'settings' ? 'page' : undefined}>
            {t.settings}
          </a>
          {s.isLoggedIn && (
            <a href={href({ name: 'bot' })} aria-current={route.name === 'bot' ? 'page' : undefined}>
              {t.bot}
            </a>
          )}
          <a href={href({ name: 'communities' })} aria-current={route.name === 'communities' ? 'page' : undefined}>
            {t.communities}
          </a>
          {panel && (
            <a href={href({ name: 'admin' })} aria-current={route.name === 'admin' || route.name === 'adminUsers' ? 'page' : undefined}>
              {t.adminPanel}
            </a>
          )}
        </nav>
        <div className="topbar-end">
          <label className="sr-only" htmlFor="lang">
            {t.language}
          </label>
          <select id="lang" value={locale} onChange={(e) => setLocale(e.target.value as 'en' | 'es')}>
            <option value="en" lang="en">
              EN
            </option>
            <option value="es" lang="es">
              ES
            </option>
          </select>
          {s.isLoggedIn && <TokenBalance />}
          {s.isLoggedIn ? (
            <button type="button" onClick={logOut}>
              {t.logOut}
            </button>
          ) : (
            <>
              <button type="button" className="primary" onClick={() => signInFromHere('signup')}>
                {t.signUp}
              </button>
              <button type="button" onClick={() => signInFromHere('login')}>
                {t.signIn}
              </button>
            </>
          )}
        </div>
      </header>
      <main id="main">
        {s.isLoggedIn && route.name !== 'room' && route.name !== 'settings' && <VerifyEmailCard />}
        {(route.name === 'lobby' || route.name === 'login') && <LobbyScreen />}
        {route.name === 'room' && <RoomScreen key={route.slug} slug={route.slug} />}
        {route.name === 'crates' && <CratesScreen crateUuid={route.crateUuid} />}
        {route.name === 'upload' && <UploadScreen />}
        {route.name === 'profile' && <ProfileScreen key={route.userUuid ?? 'me'} userUuid={route.userUuid} />}
        {route.name === 'settings' && <SettingsScreen />}
        {route.name === 'bot' && <BotScreen />}
        {route.name === 'ranking' && (
          <Suspense fallback={<p className="muted">{t.loading}</p>}>
            <RankingScreen />
          </Suspense>
        )}
        {route.name === 'shop' && (
          <Suspense fallback={<p className="muted">{t.loading}</p>}>
            <ShopScreen checkout={route.checkout} sessionId={route.sessionId} section={route.section} />
          </Suspense>
        )}
        {(route.name === 'admin' || route.name === 'adminUsers') && (
          <Suspense fallback={<p className="muted">{t.loading}</p>}>
            <AdminPanel section={route.name === 'adminUsers' ? 'users' : route.section} />
          </Suspense>
        )}
        {(route.name === 'communities' || route.name === 'community' || route.name === 'event') && (
          <Suspense fallback={<p className="muted">{t.loading}</p>}>
            {route.name === 'communities' && <CommunitiesScreen />}
            {route.name === 'community' && <CommunityScreen key={route.slug} slug={route.slug} />}
            {route.name === 'event' && <EventScreen key={route.slug} slug={route.slug} />}
          </Suspense>
        )}
        {(route.name === 'friends' || route.name === 'fans' || route.name === 'messages') && (
          <Suspense fallback={<p className="muted">{t.loading}</p>}>
            {route.name === 'fans' && <FansScreen key={`${route.userUuid}/${route.list}`} userUuid={route.userUuid} list={route.list} />}
            {route.name === 'friends' && s.isLoggedIn && <FriendsScreen />}
            {route.name === 'messages' && s.isLoggedIn && <MessagesScreen key={route.withUuid ?? 'all'} withUuid={route.withUuid} />}
          </Suspense>
        )}
      </main>
    </div>
  );
}
