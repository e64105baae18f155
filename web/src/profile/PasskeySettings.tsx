// Settings' passkeys: add one (the browser's prompt makes it; the server keeps
// its public key), see each with its name and when it was added and last
// used, delete one.
import { browserSupportsWebAuthn, startRegistration } from '@simplewebauthn/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type SubmitEvent, useState } from 'react';
import { keys } from '../api/keys';
import { passkeys } from '../api/passkeys';
import { ErrorNote } from '../app/ErrorNote';
import { formatDate, useLocale, useT } from '../i18n/i18n';
import { inBrowser, PasskeyPromptError } from '../session/PasskeySignIn';

const shown = (error: unknown) => (error instanceof PasskeyPromptError ? error.message : error);

export function PasskeySettings() {
  const t = useT();
  const locale = useLocale();
  const when = (iso: string) => formatDate(iso, 'dateTime', locale);
  const client = useQueryClient();
  const [name, setName] = useState('');
  const list = useQuery({ queryKey: keys.passkeys, queryFn: passkeys.list });
  const refresh = () => client.invalidateQueries({ queryKey: keys.passkeys });
  const add = useMutation({
    mutationFn: async () => {
      const optionsJSON = await passkeys.registrationOptions();
      return passkeys.register(await inBrowser(() => startRegistration({ optionsJSON }), t.passkeyCancelled), name);
    },
    onSuccess: async () => {
      setName('');
      await refresh();
    },
  });
  const remove = useMutation({ mutationFn: passkeys.remove, onSuccess: refresh });
  const onSubmit = (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    add.mutate();
  };
  return (
    <section className="card stack" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">{t.passkeys}</h2>
      <p className="muted">{t.passkeysHint}</p>
      {browserSupportsWebAuthn() ? (
        <form className="row" onSubmit={onSubmit} aria-label={t.passkeyAdd}>
          <label>
            {t.passkeyName}
            <input value={name} maxLength={64} placeholder={t.passkeyNamePlaceholder} onChange={(e) => setName(e.target.value)} />
          </label>
          <button type="submit" disabled={add.isPending}>
            {t.passkeyAdd}
          </button>
        </form>
      ) : (
        <p role="status">{t.passkeyUnsupported}</p>
      )}
      <ErrorNote error={shown(add.error)} />
      {list.data?.length === 0 && <p className="muted">{t.passkeyNone}</p>}
      {list.data && list.data.length > 0 && (
        <ul className="stack" aria-label={t.passkeys}>
          {list.data.map((p) => (
            <li key={p.id} className="row">
              <span>
                <strong>{p.name}</strong>
                <br />
                <small className="muted">
                  {t.passkeyAdded} {when(p.createdAt)} · {p.lastUsedAt ? `${t.passkeyLastUsed} ${when(p.lastUsedAt)}` : t.passkeyNeverUsed}
                </small>
              </span>
              <button
                type="button"
                onClick={() => remove.mutate(p.id)}
                disabled={remove.isPending}
                aria-label={`${t.passkeyDelete} ${p.name}`}
              >
                {t.passkeyDelete}
              </button>
            </li>
          ))}
        </ul>
      )}
      <ErrorNote error={list.error ?? remove.error} />
    </section>
  );
}
