import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { keys } from '../api/keys';
import { profiles } from '../api/spinroom';
import { ErrorNote } from '../app/ErrorNote';
import { Avatar } from '../avatars/Avatar';
import { CHOOSABLE_AVATARS } from '../avatars/catalogue';
import { CatalogueAvatars } from './CatalogueAvatars';
import { formatDate, nameOf, useLocale, useT } from '../i18n/i18n';
import { useSession } from '../session/session';
import { FanCounts, SocialActions } from '../social/SocialActions';

/** Your own profile (editable) or someone else's. */
export function ProfileScreen({ userUuid }: { userUuid?: string }) {
  const t = useT();
  const locale = useLocale();
  const s = useSession();
  const own = !userUuid || userUuid === s.userUuid;
  const client = useQueryClient();
  const profile = useQuery({
    queryKey: own ? keys.myProfile : keys.profile(userUuid),
    queryFn: () => (own ? profiles.mine() : profiles.other(userUuid)),
    staleTime: 300_000,
  });
  const [nickname, setNickname] = useState('');
  const [avatarId, setAvatarId] = useState('');
  const [color, setColor] = useState('#8B5CF6');
  useEffect(() => {
    if (!profile.data) return;
    setNickname(profile.data.nickname);
    setAvatarId(profile.data.avatarId);
    setColor(profile.data.color || '#8B5CF6');
  }, [profile.data]);
  const save = useMutation({
    mutationFn: () => profiles.update({ nickname, avatarId, color: color.toUpperCase() }),
    onSuccess: (data) => client.setQueryData(keys.myProfile, data),
  });
  if (profile.error) return <ErrorNote error={profile.error} />;
  if (!profile.data) return <p className="muted">{t.loading}</p>;
  const p = profile.data;
  return (
    <section className="profile card" aria-labelledby="profile-title">
      <div className="row">
        <Avatar avatarId={own ? avatarId : p.avatarId} color={own ? color : p.color} seed={p.uuid} size={96} />
        <div>
          <h1 id="profile-title">{p.nickname}</h1>
          {p.pronoun && p.pronoun !== 'null' ? <p className="muted">{p.pronoun}</p> : null}
          {p.createdAt && <p className="muted small">{formatDate(p.createdAt, 'date', locale)}</p>}
          <FanCounts userUuid={p.uuid} />
        </div>
      </div>
      {!own && <SocialActions userUuid={p.uuid} name={p.nickname} />}
      {own && (
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate();
          }}
        >
          <label>
            {t.nickname}
            <input required maxLength={40} value={nickname} onChange={(e) => setNickname(e.target.value)} />
          </label>
          <fieldset className="avatars">
            <legend>{t.avatar}</legend>
            {CHOOSABLE_AVATARS.map((a) => (
              <label key={a.id} className={avatarId === a.id ? 'chosen' : undefined}>
                <input
                  type="radio"
                  name="avatar"
                  value={a.id}
                  checked={avatarId === a.id}
                  onChange={() => setAvatarId(a.id)}
                  className="sr-only"
                />
                <Avatar avatarId={a.id} color={color} size={56} title={nameOf(t.avatarNames, a.id)} />
              </label>
            ))}
          </fieldset>
          <CatalogueAvatars chosen={avatarId} color={color} onChoose={setAvatarId} />
          <label>
            {t.color}
            <input type="color" value={color} onChange={(e) => setColor(e.target.value)} />
          </label>
          <button type="submit" className="primary" disabled={save.isPending}>
            {t.save}
          </button>
          {save.isSuccess && (
            <p role="status" className="muted">
              ✓
            </p>
          )}
          <ErrorNote error={save.error} />
        </form>
      )}
    </section>
  );
}
