import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { bots } from '../api/account';
import { ErrorNote } from '../app/ErrorNote';
import { Avatar } from '../avatars/Avatar';
import { CHOOSABLE_AVATARS } from '../avatars/catalogue';
import { useT } from '../i18n/i18n';

/** The caller's bot (one per user): create it, then show its token and copy it for a bot program. */
export function BotScreen() {
  const t = useT();
  const [botNickName, setBotNickName] = useState('');
  const [avatarId, setAvatarId] = useState('bot');
  const [color, setColor] = useState('#4F46E5');
  const [copied, setCopied] = useState(false);
  const token = useMutation({ mutationFn: bots.token, onMutate: () => setCopied(false) });
  const create = useMutation({
    mutationFn: () => bots.create({ botNickName: botNickName.trim(), avatarId, color: color.toUpperCase() }),
    onSuccess: () => token.mutate(),
  });
  const copy = useMutation({
    mutationFn: (text: string) => navigator.clipboard.writeText(text),
    onSuccess: () => setCopied(true),
  });
  return (
    <div className="stack narrow">
      <section className="card stack" aria-labelledby="bot-title">
        <h1 id="bot-title">{t.yourBot}</h1>
        <p className="muted">{t.botHint}</p>
        <form
          className="stack"
          aria-label={t.createBot}
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate();
          }}
        >
          <div className="row">
            <Avatar avatarId={avatarId} color={color} size={64} />
            <label>
              {t.botNickname}
              <input required maxLength={32} value={botNickName} onChange={(e) => setBotNickName(e.target.value)} />
            </label>
          </div>
          <label>
            {t.avatar}
            <select value={avatarId} onChange={(e) => setAvatarId(e.target.value)}>
              {CHOOSABLE_AVATARS.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.label}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t.color}
            <input type="color" value={color} onChange={(e) => setColor(e.target.value)} />
          </label>
          <button type="submit" className="primary" disabled={create.isPending}>
            {t.createBot}
          </button>
          {create.isSuccess && <p role="status">{t.botCreated}</p>}
          <ErrorNote error={create.error} />
        </form>
      </section>
      <section className="card stack" aria-labelledby="bot-token-title">
        <h2 id="bot-token-title">{t.botToken}</h2>
        <button type="button" onClick={() => token.mutate()} disabled={token.isPending}>
          {t.showBotToken}
        </button>
        <ErrorNote error={token.error} />
        {token.data && (
          <div className="row">
            <label>
              {t.botToken}
              <input readOnly value={token.data.accessToken} onFocus={(e) => e.currentTarget.select()} />
            </label>
            <button type="button" onClick={() => copy.mutate(token.data.accessToken)} disabled={copy.isPending}>
              {copied ? t.copied : t.copy}
            </button>
          </div>
        )}
        <ErrorNote error={copy.error} />
      </section>
    </div>
  );
}
