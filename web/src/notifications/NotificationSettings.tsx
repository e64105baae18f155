import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useSession } from '../session/session';
import { ErrorNote } from '../app/ErrorNote';
import type { Strings } from '../i18n/en';
import { useT } from '../i18n/i18n';
import { NOTIFICATION_KINDS, notificationsApi, type NotificationKind, type NotificationPreferences } from './api';
import { browserPushEnvironment, disablePush, enablePush, pushState, PushSetupError, type PushEnvironment } from './webPush';

const keys = {
  push: (userUuid: string) => ['notifications', 'push', userUuid] as const,
  preferences: ['notifications', 'preferences'] as const,
};

/** The zones a person may pick: the engine's list, with theirs, the stored one and UTC. */
export function timeZones(...extra: Array<string | undefined>): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([...known, 'UTC', ...extra.filter((zone): zone is string => Boolean(zone))])].sort();
}

export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

function setupErrorText(error: unknown, t: Strings): string | undefined {
  if (!(error instanceof PushSetupError)) return undefined;
  return {
    unsupported: t.notifUnsupported,
    blocked: t.notifBlocked,
    dismissed: t.notifDismissed,
    notConfigured: t.notifNotConfigured,
    subscribeFailed: t.notifSubscribeFailed,
  }[error.reason];
}

/**
 * Notifications (issue 17): push in this browser (on: the permission, the
 * service worker and the subscription registered as a web device; off: the
 * device deleted and the subscription ended), which kinds to receive, and
 * quiet hours in a time zone (the social service's preferences, for every
 * device of the person's).
 */
export function NotificationSettings({ env = browserPushEnvironment() }: { env?: PushEnvironment }) {
  const t = useT();
  const userUuid = useSession().userUuid ?? '';
  const client = useQueryClient();
  const state = useQuery({ queryKey: keys.push(userUuid), queryFn: () => pushState(env, notificationsApi, userUuid) });
  const toggle = useMutation({
    mutationFn: (on: boolean) => (on ? enablePush(env, notificationsApi) : disablePush(env, notificationsApi)),
    onSettled: () => client.invalidateQueries({ queryKey: keys.push(userUuid) }),
  });
  const preferences = useQuery({ queryKey: keys.preferences, queryFn: notificationsApi.preferences });
  const setupError = setupErrorText(toggle.error, t);
  return (
    <section className="card stack" aria-labelledby="notifications-title">
      <h2 id="notifications-title">{t.notifications}</h2>
      <h3>{t.notifPushTitle}</h3>
      <p className="muted">{t.notifPushHint}</p>
      {state.data === 'unsupported' && <p>{t.notifUnsupported}</p>}
      {state.data === 'blocked' && <p>{t.notifBlocked}</p>}
      {(state.data === 'on' || state.data === 'off') && (
        <>
          <p role="status">{state.data === 'on' ? t.notifPushOn : t.notifPushOff}</p>
          <button type="button" disabled={toggle.isPending} onClick={() => toggle.mutate(state.data === 'off')}>
            {state.data === 'on' ? t.notifTurnOff : t.notifTurnOn}
          </button>
        </>
      )}
      {setupError ? (
        <p className="error" role="alert">
          {setupError}
        </p>
      ) : (
        <ErrorNote error={toggle.error ?? state.error} />
      )}
      {preferences.data ? (
        <PreferencesForm
          saved={{ mutedKinds: preferences.data.mutedKinds, quietHours: preferences.data.quietHours }}
          onSaved={(next) => client.setQueryData(keys.preferences, { ...preferences.data, ...next })}
        />
      ) : (
        <ErrorNote error={preferences.error} />
      )}
    </section>
  );
}

function PreferencesForm({ saved, onSaved }: { saved: NotificationPreferences; onSaved: (next: NotificationPreferences) => void }) {
  const t = useT();
  const [muted, setMuted] = useState<Set<NotificationKind>>(() => new Set(saved.mutedKinds));
  const [quiet, setQuiet] = useState(saved.quietHours !== null);
  const [start, setStart] = useState(saved.quietHours?.start ?? '22:00');
  const [end, setEnd] = useState(saved.quietHours?.end ?? '07:00');
  const [timeZone, setTimeZone] = useState(saved.quietHours?.timeZone ?? browserTimeZone());
  const [zones] = useState(() => timeZones(browserTimeZone(), saved.quietHours?.timeZone));
  const zoneId = useId();
  const save = useMutation({
    mutationFn: () =>
      notificationsApi.savePreferences({
        mutedKinds: NOTIFICATION_KINDS.filter((kind) => muted.has(kind)),
        quietHours: quiet ? { start, end, timeZone } : null,
      }),
    onSuccess: onSaved,
  });
  const receive = (kind: NotificationKind, on: boolean) => {
    const next = new Set(muted);
    if (on) next.delete(kind);
    else next.add(kind);
    setMuted(next);
    save.reset();
  };
  return (
    <form
      className="stack"
      aria-label={t.notifPreferences}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <fieldset className="stack">
        <legend>{t.notifKindsTitle}</legend>
        {NOTIFICATION_KINDS.map((kind) => (
          <label key={kind} className="check">
            <input type="checkbox" checked={!muted.has(kind)} onChange={(e) => receive(kind, e.target.checked)} />
            {t.notifKinds[kind]}
          </label>
        ))}
      </fieldset>
      <fieldset className="stack">
        <legend>{t.notifQuietHours}</legend>
        <label className="check">
          <input type="checkbox" checked={quiet} onChange={(e) => setQuiet(e.target.checked)} />
          {t.notifQuietHoursOn}
        </label>
        <p className="muted small">{t.notifQuietHoursHint}</p>
        <div className="row">
          <label>
            {t.notifQuietFrom}
            <input type="time" required disabled={!quiet} value={start} onChange={(e) => setStart(e.target.value)} />
          </label>
          <label>
            {t.notifQuietTo}
            <input type="time" required disabled={!quiet} value={end} onChange={(e) => setEnd(e.target.value)} />
          </label>
        </div>
        {/* Labelled by id, not by wrapping: a wrapping label's text would take in every option's. */}
        <label htmlFor={zoneId}>{t.notifTimeZone}</label>
        <select id={zoneId} disabled={!quiet} value={timeZone} onChange={(e) => setTimeZone(e.target.value)}>
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone.replace(/_/g, ' ')}
            </option>
          ))}
        </select>
      </fieldset>
      <button type="submit" disabled={save.isPending}>
        {t.notifSave}
      </button>
      {save.isSuccess && <p role="status">{t.notifSaved}</p>}
      <ErrorNote error={save.error} />
    </form>
  );
}
