import { useMutation } from '@tanstack/react-query';
import { type SubmitEvent, useEffect, useState } from 'react';
import { auth } from '../api/spinroom';
import { ErrorNote } from '../app/ErrorNote';
import { useRoute } from '../app/router';
import { useT } from '../i18n/i18n';
import { Landing } from './Landing';
import { ForgotPassword, MagicLinkRequest, PasswordSignIn, PhoneSignIn } from './SignInForms';
import { PasskeySignIn } from './PasskeySignIn';
import { wantedAuthMode } from './signInFrom';
import { startSession } from './startSession';

type Method = 'phone' | 'password' | 'link';

/**
 * Sign up (email and password; the mailed code is entered in the app, VerifyEmailCard),
 * log in (phone code, email and password, mailed link), or browse as a guest.
 * #/login opens the log-in tab.
 */
export function AuthScreen() {
  const t = useT();
  const toLogIn = useRoute().name === 'login';
  const [mode, setMode] = useState<'login' | 'signup'>(toLogIn ? 'login' : wantedAuthMode);
  useEffect(() => {
    if (toLogIn) setMode('login');
  }, [toLogIn]);
  const [method, setMethod] = useState<Method>('phone');
  const [forgot, setForgot] = useState(false);
  const guest = useMutation({ mutationFn: auth.guest, onSuccess: startSession });
  const methods: Array<[Method, string]> = [
    ['phone', t.authByPhone],
    ['password', t.authByPassword],
    ['link', t.authByLink],
  ];
  return (
    <main className="auth" id="main">
      <h1>{t.appName}</h1>
      <Landing />
      <div className="tabs" role="tablist" aria-label={t.appName}>
        <button type="button" role="tab" aria-selected={mode === 'signup'} onClick={() => setMode('signup')}>
          {t.signUp}
        </button>
        <button type="button" role="tab" aria-selected={mode === 'login'} onClick={() => setMode('login')}>
          {t.signIn}
        </button>
      </div>
      {mode === 'signup' && (
        <SignUpForm
          onUsePhone={() => {
            setMode('login');
            setMethod('phone');
          }}
        />
      )}
      {mode === 'login' && forgot && <ForgotPassword onBack={() => setForgot(false)} />}
      {mode === 'login' && !forgot && (
        <>
          <fieldset className="row methods">
            <legend className="sr-only">{t.authLogInWith}</legend>
            {methods.map(([m, label]) => (
              <button key={m} type="button" aria-pressed={method === m} onClick={() => setMethod(m)}>
                {label}
              </button>
            ))}
          </fieldset>
          {method === 'phone' && <PhoneSignIn />}
          {method === 'password' && <PasswordSignIn onForgot={() => setForgot(true)} />}
          {method === 'link' && <MagicLinkRequest />}
          <PasskeySignIn />
        </>
      )}
      <button type="button" className="link" onClick={() => guest.mutate()} disabled={guest.isPending}>
        {t.guest}
      </button>
      <ErrorNote error={guest.error} />
    </main>
  );
}

/** A phone number signs up through the phone-code log-in: a new number gets a new account. */
function SignUpForm({ onUsePhone }: { onUsePhone: () => void }) {
  const t = useT();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [nickname, setNickname] = useState('');
  const signUp = useMutation({
    mutationFn: () => auth.signUp({ email, password, ...(nickname ? { nickname } : {}) }),
    onSuccess: startSession,
  });
  const onSubmit = (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    signUp.mutate();
  };
  return (
    <form onSubmit={onSubmit} className="card stack" aria-label={t.signUp}>
      <label>
        {t.email}
        <input type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
      <label>
        {t.password}
        <input type="password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
      </label>
      <label>
        {t.nickname}
        <input autoComplete="nickname" value={nickname} onChange={(e) => setNickname(e.target.value)} maxLength={40} />
      </label>
      <button type="submit" className="primary" disabled={signUp.isPending}>
        {t.signUp}
      </button>
      <ErrorNote error={signUp.error} />
      <button type="button" className="link" onClick={onUsePhone}>
        {t.authUsePhone}
      </button>
    </form>
  );
}
