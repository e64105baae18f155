import { useMutation } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { errorCode, errorText, KEPT_OUT_CODES, PASSWORD_CODES } from '../api/errors';
import { rooms as roomApi } from '../api/spinroom';
import { ErrorNote } from '../app/ErrorNote';
import { href } from '../app/router';
import { useT } from '../i18n/i18n';
import { useSession } from '../session/session';
import { asksEntryFee, EntryFeeConfirm } from '../shop/EntryFee';
import { KickedScreen } from './KickedScreen';
import { currentRoom, rememberRoomPassword, setCurrentRoom } from './roomStore';

// The live room (stage drawings, feed, player, chat) loads when a room is opened, not with the first page.
const LiveRoomView = lazy(() => import('./LiveRoomView').then((m) => ({ default: m.LiveRoomView })));

/** Loads the room over REST (password checked, recent room recorded), then goes live. */
export function RoomScreen({ slug }: { slug: string }) {
  const t = useT();
  const [password, setPassword] = useState(() => currentRoom(slug).password ?? '');
  const [typed, setTyped] = useState('');
  const join = useMutation({ mutationFn: (pw: string) => roomApi.join(slug, pw || undefined) });
  const { mutate } = join;
  const s = useSession();
  // A paid room asks before the first entry (the feed's joinRoom charges the fee).
  const [entering, setEntering] = useState(false);
  useEffect(() => {
    setCurrentRoom(slug);
    mutate(password);
  }, [slug, password, mutate]);
  if (join.isError) {
    const code = errorCode(join.error);
    const needsPassword = code !== undefined && PASSWORD_CODES.has(code);
    if (code !== undefined && KEPT_OUT_CODES.has(code)) return <KickedScreen reason={errorText(join.error)} />;
    return (
      <section className="card stack narrow">
        <ErrorNote error={join.error} />
        {needsPassword && (
          <form
            className="stack"
            onSubmit={(e) => {
              e.preventDefault();
              rememberRoomPassword(slug, typed);
              setPassword(typed);
            }}
          >
            <label>
              {t.password}
              <input type="password" required value={typed} onChange={(e) => setTyped(e.target.value)} />
            </label>
            <button type="submit" className="primary">
              {t.join}
            </button>
          </form>
        )}
        <a href={href({ name: 'lobby' })}>{t.backToLobby}</a>
      </section>
    );
  }
  if (!join.data) return <p className="muted">{t.loading}</p>;
  if (!entering && asksEntryFee(join.data, s)) return <EntryFeeConfirm room={join.data} onEnter={() => setEntering(true)} />;
  return (
    <Suspense fallback={<p className="muted">{t.loading}</p>}>
      <LiveRoomView room={join.data} password={password} />
    </Suspense>
  );
}
