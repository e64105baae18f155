import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { passwords } from '../../api/account';
import { ErrorNote } from '../../app/ErrorNote';
import { useT } from '../../i18n/i18n';
import { session } from '../../session/session';

/** Change the password (the answer is a new session: the change ended the others), or set a first one. */
export function PasswordSection() {
  const t = useT();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [firstPassword, setFirstPassword] = useState('');
  const change = useMutation({
    mutationFn: () => passwords.change({ email, password, newPassword }),
    onSuccess: (grant) => {
      session.signIn(grant.accessToken, grant.userUuid, 'user');
      setPassword('');
      setNewPassword('');
    },
  });
  const set = useMutation({ mutationFn: () => passwords.set(firstPassword), onSuccess: () => setFirstPassword('') });
  return (
    <section className="card stack" aria-labelledby="password-title">
      <h2 id="password-title">{t.changePassword}</h2>
      <form
        className="stack"
        aria-label={t.changePassword}
        onSubmit={(e) => {
          e.preventDefault();
          change.mutate();
        }}
      >
        <label>
          {t.email}
          <input type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label>
          {t.currentPassword}
          <input type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        <label>
          {t.newPassword}
          <input
            type="password"
            autoComplete="new-password"
            required
            minLength={8}
            maxLength={128}
            value={newPassword}
            onChange={(e) => setNewPassword(e.target.value)}
          />
        </label>
        <button type="submit" disabled={change.isPending}>
          {t.changePassword}
        </button>
        {change.isSuccess && <p role="status">{t.passwordChanged}</p>}
        <ErrorNote error={change.error} />
      </form>
      <details>
        <summary>{t.noPasswordYet}</summary>
        <form
          className="stack"
          aria-label={t.setPassword}
          onSubmit={(e) => {
            e.preventDefault();
            set.mutate();
          }}
        >
          <label>
            {t.newPassword}
            <input
              type="password"
              autoComplete="new-password"
              required
              minLength={8}
              maxLength={128}
              value={firstPassword}
              onChange={(e) => setFirstPassword(e.target.value)}
            />
          </label>
          <button type="submit" disabled={set.isPending}>
            {t.setPassword}
          </button>
          {set.isSuccess && <p role="status">{t.passwordSet}</p>}
          <ErrorNote error={set.error} />
        </form>
      </details>
    </section>
  );
}
