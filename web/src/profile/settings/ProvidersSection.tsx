import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { type LinkableProvider, providerLinks } from '../../api/account';
import { keys } from '../../api/keys';
import { ErrorNote } from '../../app/ErrorNote';
import { useT } from '../../i18n/i18n';
import { authorizeUrl, canLink, type ProviderReturn, type RedirectProvider, redirectUri, takeProviderReturn } from './providerLink';

type RowProvider = Exclude<LinkableProvider, 'apple'>;
const LABELS: Record<RowProvider, string> = { spotify: 'Spotify', youtube: 'YouTube', soundcloud: 'SoundCloud' };
// Apple Music links through MusicKit in this page: its row is its own chunk.
const AppleMusicRow = lazy(() => import('./AppleMusicRow').then((m) => ({ default: m.AppleMusicRow })));

// Read once when the client starts (this module loads with the app), before the router reads the address.
let providerReturn: ProviderReturn | undefined = typeof window === 'undefined' ? undefined : takeProviderReturn();

function ProviderRow({ provider, linked }: { provider: RowProvider; linked: boolean | undefined }) {
  const t = useT();
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: keys.providerLinks });
  const [refreshToken, setRefreshToken] = useState('');
  const go = useMutation({
    mutationFn: async (p: RedirectProvider) => {
      window.location.assign(await authorizeUrl(p));
    },
  });
  const saveSoundCloud = useMutation({
    mutationFn: () => providerLinks.saveSoundCloud(refreshToken.trim()),
    onSuccess: () => {
      setRefreshToken('');
      return refresh();
    },
  });
  const unlink = useMutation({ mutationFn: () => providerLinks.unlink(provider), onSuccess: refresh });
  const label = LABELS[provider];
  return (
    <li className="stack">
      <div className="row">
        <strong>{label}</strong>
        <span className="muted small">{linked === undefined ? t.loading : linked ? t.linked : t.notLinked}</span>
        {linked && (
          <button type="button" onClick={() => unlink.mutate()} disabled={unlink.isPending}>
            {t.unlink} {label}
          </button>
        )}
        {provider !== 'soundcloud' &&
          linked === false &&
          (canLink(provider) ? (
            <button type="button" onClick={() => go.mutate(provider)} disabled={go.isPending}>
              {t.linkWith} {label}
            </button>
          ) : (
            <span className="muted small">{t.providerNotConfigured}</span>
          ))}
      </div>
      {provider === 'soundcloud' && linked === false && (
        <form
          className="row"
          aria-label={`${t.link} ${label}`}
          onSubmit={(e) => {
            e.preventDefault();
            saveSoundCloud.mutate();
          }}
        >
          <label>
            {t.soundcloudToken}
            <input required autoComplete="off" value={refreshToken} onChange={(e) => setRefreshToken(e.target.value)} />
          </label>
          <button type="submit" disabled={saveSoundCloud.isPending}>
            {t.link}
          </button>
        </form>
      )}
      <ErrorNote error={go.error ?? saveSoundCloud.error ?? unlink.error} />
    </li>
  );
}

/** Linked music providers: what is linked, linking (MusicKit's sign-in, OAuth redirect or SoundCloud's token), unlinking. */
export function ProvidersSection() {
  const t = useT();
  const client = useQueryClient();
  const links = useQuery({ queryKey: keys.providerLinks, queryFn: providerLinks.list });
  const exchange = useMutation({
    mutationFn: (r: ProviderReturn) =>
      providerLinks.exchangeCode(r.provider, { code: r.code, redirectUri: redirectUri(), codeVerifier: r.codeVerifier }),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.providerLinks }),
  });
  const { mutate } = exchange;
  const isLinked = (p: LinkableProvider) => links.data?.some((l) => l.provider === p && l.client === 'web');
  useEffect(() => {
    if (!providerReturn) return;
    const answer = providerReturn;
    providerReturn = undefined;
    mutate(answer);
  }, [mutate]);
  return (
    <section className="card stack" aria-labelledby="providers-title">
      <h2 id="providers-title">{t.musicProviders}</h2>
      <ErrorNote error={links.error ?? exchange.error} />
      <ul className="stack" aria-label={t.musicProviders}>
        {/* Spec 002's preference order first: apple, spotify, youtube. */}
        <Suspense fallback={null}>
          <AppleMusicRow linked={isLinked('apple')} />
        </Suspense>
        {(['spotify', 'youtube', 'soundcloud'] as const).map((p) => (
          <ProviderRow key={p} provider={p} linked={isLinked(p)} />
        ))}
      </ul>
    </section>
  );
}
