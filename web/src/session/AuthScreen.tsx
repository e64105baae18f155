import { useMutation } from '@tanstack/react-query';
import { type SubmitEvent, useState } from 'react';
import { auth } from '../api/spinroom';
import { ErrorNote } from '../app/ErrorNote';
import { useT } from '../i18n/i18n';
import { session, tokenClaims } from './session';

async function startSession(grant: { accessToken: string; userUuid: string }) {
  const role = tokenClaims(grant.accessToken).role;
  session.signIn(grant.accessToken, grant.userUuid, role === 'guest' ? 'guest' : role === 'bot' ? 'bot' : 'user');
}

/** Sign up, log in (email and password), or browse as a guest. */
export function AuthScreen() {
  const t = useT();
  const [mode, setMode] = useState<'login' | 'signup'>('signup');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [nickname, setNickname] = useState('');
  const submit = useMutation({
    mutationFn: () =>
      mode === 'signup' ? auth.signUp({ email, password, ...(nickname ? { nickname } : {}) }) : auth.login({ email, password }),
    onSuccess: startSession,
  });
  const guest = useMutation({ mutationFn: auth.guest, onSuccess: startSession });
  const onSubmit = (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    submit.mutate();
  };
  return (
    <main className="auth" id="main">
      <h1>{t.appName}</h1>
      <div className="tabs" role="tablist" aria-label={t.appName}>
        <button type="button" role="tab" aria-selected={mode === 'signup'} onClick={() => setMode('signup')}>
          {t.signUp}
        </button>
        <button type="button" role="tab" aria-selected={mode === 'login'} onClick={() => setMode('login')}>
          {t.signIn}
        </button>
      </div>
      <form onSubmit={onSubmit} className="card stack" aria-label={mode === 'signup' ? t.signUp : t.signIn}>
        <label>
          {t.email}
          <input type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label>
          {t.password}
          <input
            type="password"
            autoComplete={mode === 'signup' ? 'new-password' : 'current-password'}
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        {mode === 'signup' && (
          <label>
            {t.nickname}
            <input autoComplete="nickname" value={nickname} onChange={(e) => setNickname(e.target.value)} maxLength={40} />
          </label>
        )}
        <button type="submit" className="primary" disabled={submit.isPending}>
          {mode === 'signup' ? t.signUp : t.signIn}
        </button>
        <ErrorNote error={submit.error} />
      </form>
      <button type="button" className="link" onClick={() => guest.mutate()} disabled={guest.isPending}>
        {t.guest}
      </button>
      <ErrorNote error={guest.error} />
    </main>
  );
}
