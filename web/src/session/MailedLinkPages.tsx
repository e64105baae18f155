// The pages a mailed link opens (services/user/src/domain/mail/links.ts writes
// them as #/magic-link/<token> and #/reset-password/<token>): shown whether or
// not someone is signed in, since the link is what the person asked for.
// Once used, the token leaves the address bar and the history (location.replace).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type SubmitEvent, useEffect, useState } from 'react';
import { auth } from '../api/spinroom';
import type { AccessGrant } from '../api/types';
import { ErrorNote } from '../app/ErrorNote';
import { href } from '../app/router';
import { useT } from '../i18n/i18n';
import { session } from './session';
import { startSession } from './startSession';

// A link works once: React's development double mount (StrictMode) must not spend it twice,
// so mounts while its request is out share it; once answered, opening the link again asks again.
const validations = new Map<string, Promise<AccessGrant>>();
function validateOnce(token: string): Promise<AccessGrant> {
  let pending = validations.get(token);
  if (!pending) {
    pending = auth.validateMagicLink(token).finally(() => validations.delete(token));
    validations.set(token, pending);
  }
  return pending;
}

function BackToLogIn() {
  const t = useT();
  return (
    <button type="button" className="link" onClick={() => window.location.replace(href({ name: 'login' }))}>
      {t.authBackToLogIn}
    </button>
  );
}

/** Trades the link's token for a session, then opens the lobby. */
export function MagicLinkLanding({ token }: { token: string }) {
  const t = useT();
  const queryClient = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let current = true;
    validateOnce(token).then(
      (grant) => {
        if (!current) return;
        queryClient.clear(); // whoever was signed in here before, their cached data goes
        startSession(grant);
        window.location.replace(href({ name: 'lobby' }));
      },
      (failure: unknown) => current && setError(failure),
    );
    return () => {
      current = false;
    };
  }, [token, queryClient]);
  return (
    <main className="auth" id="main">
      <h1>{t.appName}</h1>
      {error ? (
        <>
          <ErrorNote error={error} />
          <BackToLogIn />
        </>
      ) : (
        <p role="status">{t.authSigningIn}</p>
      )}
    </main>
  );
}

/** A new password for the account the link was mailed for; the reset ends that account's sessions, so this browser's too. */
export function ResetPasswordScreen({ token }: { token: string }) {
  const t = useT();
  const queryClient = useQueryClient();
  const [newPassword, setNewPassword] = useState('');
  const reset = useMutation({
    mutationFn: () => auth.resetPassword(token, newPassword),
    onSuccess: () => {
      session.signOut();
      queryClient.clear();
    },
  });
  const onSubmit = (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    reset.mutate();
  };
  return (
    <main className="auth" id="main">
      <h1>{t.appName}</h1>
      {reset.isSuccess ? (
        <>
          <p role="status" className="notice">
            {t.authResetDone}
          </p>
          <button type="button" className="primary" onClick={() => window.location.replace(href({ name: 'login' }))}>
            {t.signIn}
          </button>
        </>
      ) : (
        <>
          <form className="card stack" aria-label={t.authResetTitle} onSubmit={onSubmit}>
            <h2>{t.authResetTitle}</h2>
            <label>
              {t.authNewPassword}
              <input
                type="password"
                autoComplete="new-password"
                required
                value={newPassword}
                onChange={(e) => setNewPassword(e.target.value)}
              />
            </label>
            <button type="submit" className="primary" disabled={reset.isPending}>
              {t.authSaveNewPassword}
            </button>
            <ErrorNote error={reset.error} />
          </form>
          <BackToLogIn />
        </>
      )}
    </main>
  );
}
