import { lazy, Suspense } from 'react';
import { setLocale, useLocale, useT, type Locale } from '../i18n/i18n';
import { session, useSession, type AudioQuality } from '../session/session';
import { EmailsSection } from './settings/EmailsSection';
import { PasswordSection } from './settings/PasswordSection';
import { PasskeySettings } from './PasskeySettings';
import { PhoneSection } from './settings/PhoneSection';
import { ProvidersSection } from './settings/ProvidersSection';
import { DeactivationSection, SessionsSection } from './settings/SessionsSection';
import { BlockedUsersSection } from '../social/BlockedUsersSection';

// Notifications (push, the service worker's registration, preferences) load with the settings' first view.
const NotificationSettings = lazy(() => import('../notifications/NotificationSettings').then((m) => ({ default: m.NotificationSettings })));

/** Audio quality (kept with the session) and language (kept locally); for signed-in users, the account's sections. */
export function SettingsScreen() {
  const t = useT();
  const s = useSession();
  const locale = useLocale();
  return (
    <div className="stack narrow">
      <section className="card stack" aria-labelledby="settings-title">
        <h1 id="settings-title">{t.settings}</h1>
        <label>
          {t.audioQuality}
          <select value={s.audioQuality} disabled={!s.isLoggedIn} onChange={(e) => session.setAudioQuality(e.target.value as AudioQuality)}>
            <option value="low">{t.low}</option>
            <option value="medium">{t.medium}</option>
            <option value="high">{t.high}</option>
          </select>
        </label>
        <label>
          {t.language}
          <select value={locale} onChange={(e) => setLocale(e.target.value as Locale)}>
            <option value="en" lang="en">
              English
            </option>
            <option value="es" lang="es">
              Español
            </option>
          </select>
        </label>
      </section>
      {s.isLoggedIn && (
        <>
          <EmailsSection />
          <PhoneSection />
          <ProvidersSection />
          <Suspense fallback={null}>
            <NotificationSettings />
          </Suspense>
          <PasswordSection />
          <PasskeySettings />
          <BlockedUsersSection />
          <SessionsSection />
          <DeactivationSection />
        </>
      )}
    </div>
  );
}
