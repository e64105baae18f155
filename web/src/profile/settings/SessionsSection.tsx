import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { account } from '../../api/account';
import { ErrorNote } from '../../app/ErrorNote';
import { formatDate, useLocale, useT } from '../../i18n/i18n';
import { session } from '../../session/session';

/** "Sign out everywhere" (spinroom's logout ends every session of the account), then back to sign-in. */
export function SessionsSection() {
  const t = useT();
  const client = useQueryClient();
  const logout = useMutation({
    mutationFn: account.logout,
    onSuccess: () => {
      session.signOut();
      client.clear();
      window.location.hash = '#/';
    },
  });
  return (
    <section className="card stack" aria-labelledby="sessions-title">
      <h2 id="sessions-title">{t.sessions}</h2>
      <p className="muted">{t.signOutEverywhereHint}</p>
      <button type="button" onClick={() => logout.mutate()} disabled={logout.isPending}>
        {t.signOutEverywhere}
      </button>
      <ErrorNote error={logout.error} />
    </section>
  );
}

/** Ask for the account to be deactivated (moderators carry it out). */
export function DeactivationSection() {
  const t = useT();
  const locale = useLocale();
  const [requestedAt, setRequestedAt] = useState<string | null>(null);
  const request = useMutation({
    mutationFn: account.requestDeactivation,
    onSuccess: (standing) => setRequestedAt(standing.deactivationRequestedAt),
  });
  return (
    <section className="card stack" aria-labelledby="deactivation-title">
      <h2 id="deactivation-title">{t.deactivation}</h2>
      {requestedAt ? (
        <p role="status">
          {t.deactivationRequested} {formatDate(requestedAt, 'dateTime', locale)}
        </p>
      ) : (
        <button type="button" onClick={() => request.mutate()} disabled={request.isPending}>
          {t.requestDeactivation}
        </button>
      )}
      <ErrorNote error={request.error} />
    </section>
  );
}
