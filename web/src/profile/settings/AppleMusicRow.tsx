// Apple Music's row of the settings screen, its own chunk (loaded with the screen's list, not the app): linking
// goes through MusicKit on the Web in this page (web/src/playback/apple.ts, loaded on first use), which has the
// user sign in with Apple in Apple's window and answers the Music User Token the user service keeps.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { providerLinks } from '../../api/account';
import { ApiError } from '../../api/errors';
import { keys } from '../../api/keys';
import { ErrorNote } from '../../app/ErrorNote';
import { fill, useT } from '../../i18n/i18n';
import { session } from '../../session/session';

const LABEL = 'Apple Music';
const appleMusic = () => import('../../playback/apple');
const storefront = () => session.get().appleStorefrontId || 'us';

/** Why Apple Music did not link, in the reader's words; undefined for errors ErrorNote words. */
function problemText(error: unknown, t: ReturnType<typeof useT>): string | undefined {
  if (error instanceof ApiError && error.status === 503) return t.providerNotConfigured;
  const name = (error as Error | null)?.name;
  if (name === 'AppleLinkRefused') return t.appleNotLinked;
  if (name === 'PlaybackFailure') return fill(t.playbackFailed.sdkUnavailable, { provider: LABEL });
  return undefined;
}

export function AppleMusicRow({ linked }: { linked: boolean | undefined }) {
  const t = useT();
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: keys.providerLinks });
  const link = useMutation({ mutationFn: async () => (await appleMusic()).linkAppleMusic(storefront()), onSuccess: refresh });
  // MusicKit and its developer token before the click, so Apple's window opens while the click still counts.
  const prepare = () => {
    void appleMusic()
      .then((m) => m.prepareAppleLink(storefront()))
      .catch(() => undefined);
  };
  const unlink = useMutation({
    mutationFn: async () => {
      await providerLinks.unlink('apple');
      await (await appleMusic()).forgetAppleMusic();
    },
    onSuccess: refresh,
  });
  const problem = link.error ? problemText(link.error, t) : undefined;
  return (
    <li className="stack">
      <div className="row">
        <strong>{LABEL}</strong>
        <span className="muted small">{linked === undefined ? t.loading : linked ? t.linked : t.notLinked}</span>
        {linked && (
          <button type="button" onClick={() => unlink.mutate()} disabled={unlink.isPending}>
            {t.unlink} {LABEL}
          </button>
        )}
        {linked === false && (
          <button type="button" onPointerEnter={prepare} onFocus={prepare} onClick={() => link.mutate()} disabled={link.isPending}>
            {t.link} {LABEL}
          </button>
        )}
      </div>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      <ErrorNote error={unlink.error ?? (problem ? undefined : link.error)} />
    </li>
  );
}
