import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { type LinkableProvider, providerLinks } from '../../api/account';
import { ApiError } from '../../api/errors';
import { keys } from '../../api/keys';
import { ErrorNote } from '../../app/ErrorNote';
import { useT } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { authorizeUrl, canLink, type ProviderReturn, type RedirectProvider, redirectUri, takeProviderReturn } from './providerLink';

const LABELS: Record<LinkableProvider, string> = { spotify: 'Spotify', youtube: 'YouTube', soundcloud: 'SoundCloud' };

// Read once when the client starts (this module loads with the app), before the router reads the address.
let providerReturn: ProviderReturn | undefined = typeof window === 'undefined' ? undefined : takeProviderReturn();

/** Whether a provider is linked: its token answers, a 404 says not linked. */
function useLinked(provider: LinkableProvider, userUuid: string) {
  return useQuery({
    queryKey: keys.providerLink(provider),
    queryFn: () =>
      providerLinks.check(provider, userUuid).then(
        () => true,
        (error: unknown) => {
          if (error instanceof ApiError && error.status === 404) return false;
          throw error;
        },
      ),
    staleTime: 300_000,
    retry: false,
  });
}

function ProviderRow({ provider, userUuid }: { provider: LinkableProvider; userUuid: string }) {
  const t = useT();
  const client = useQueryClient();
  const linked = useLinked(provider, userUuid);
  const refresh = () => client.invalidateQueries({ queryKey: keys.providerLink(provider) });
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
  const unlink = useMutation({ mutationFn: providerLinks.unlinkSpotify, onSuccess: refresh });
  const label = LABELS[provider];
  return (
    <li className="stack">
      <div className="row">
        <strong>{label}</strong>
        <span className="muted small">
          {linked.data === undefined ? (linked.isPending ? t.loading : '') : linked.data ? t.linked : t.notLinked}
        </span>
        {provider === 'spotify' && linked.data && (
          <button type="button" onClick={() => unlink.mutate()} disabled={unlink.isPending}>
            {t.unlink} {label}
          </button>
        )}
        {provider !== 'soundcloud' &&
          linked.data === false &&
          (canLink(provider) ? (
            <button type="button" onClick={() => go.mutate(provider)} disabled={go.isPending}>
              {t.linkWith} {label}
            </button>
          ) : (
            <span className="muted small">{t.providerNotConfigured}</span>
          ))}
      </div>
      {provider === 'soundcloud' && linked.data === false && (
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
      <ErrorNote error={linked.error ?? go.error ?? saveSoundCloud.error ?? unlink.error} />
    </li>
  );
}

/** Linked music providers: what is linked, linking (OAuth redirect or SoundCloud's token), unlinking. */
export function ProvidersSection() {
  const t = useT();
  const { userUuid } = useSession();
  const client = useQueryClient();
  const exchange = useMutation({
    mutationFn: (r: ProviderReturn) =>
      providerLinks.exchangeCode(r.provider, { code: r.code, redirectUri: redirectUri(), codeVerifier: r.codeVerifier }),
    onSuccess: (_token, r) => client.invalidateQueries({ queryKey: keys.providerLink(r.provider) }),
  });
  const { mutate } = exchange;
  useEffect(() => {
    if (!providerReturn) return;
    const answer = providerReturn;
    providerReturn = undefined;
    mutate(answer);
  }, [mutate]);
  if (!userUuid) return null;
  return (
    <section className="card stack" aria-labelledby="providers-title">
      <h2 id="providers-title">{t.musicProviders}</h2>
      <ErrorNote error={exchange.error} />
      <ul className="stack" aria-label={t.musicProviders}>
        {(['spotify', 'youtube', 'soundcloud'] as const).map((p) => (
          <ProviderRow key={p} provider={p} userUuid={userUuid} />
        ))}
      </ul>
    </section>
  );
}
