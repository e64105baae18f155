// Linking Spotify or YouTube is an OAuth authorization-code flow with PKCE: the
// browser goes to the provider, which sends it back to this page with `?code=&state=`;
// the BFF then exchanges the code (POST /{provider}/exchange-code). The apps' client
// ids are public and come from the build (VITE_SPOTIFY_CLIENT_ID, VITE_YOUTUBE_CLIENT_ID).

export type RedirectProvider = 'spotify' | 'youtube';

const PENDING_KEY = 'spinroom.provider-link';

const AUTHORIZE: Record<RedirectProvider, { url: string; scope: string; clientId: string | undefined; extra?: Record<string, string> }> = {
  spotify: {
    url: 'https://accounts.spotify.com/authorize',
    scope: 'user-read-email streaming user-read-playback-state user-modify-playback-state',
    clientId: import.meta.env.VITE_SPOTIFY_CLIENT_ID,
  },
  youtube: {
    url: 'https://accounts.google.com/o/oauth2/v2/auth',
    scope: 'https://www.googleapis.com/auth/youtube.readonly',
    clientId: import.meta.env.VITE_YOUTUBE_CLIENT_ID,
    // A refresh token is only sent with offline access, and again only on consent.
    extra: { access_type: 'offline', prompt: 'consent' },
  },
};

/** Where the provider sends the browser back: this page without query or fragment (providers refuse fragments). */
export function redirectUri(): string {
  return `${window.location.origin}${window.location.pathname}`;
}

function randomText(bytes: number): string {
  const values = crypto.getRandomValues(new Uint8Array(bytes));
  return base64Url(values);
}

function base64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

export function canLink(provider: RedirectProvider): boolean {
  return Boolean(AUTHORIZE[provider].clientId);
}

/** The provider's authorization page for this link, remembering the state and PKCE verifier for the return. */
export async function authorizeUrl(provider: RedirectProvider): Promise<string> {
  const config = AUTHORIZE[provider];
  const state = `${provider}.${randomText(16)}`;
  const codeVerifier = randomText(48);
  const challenge = base64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(codeVerifier))));
  sessionStorage.setItem(PENDING_KEY, JSON.stringify({ state, codeVerifier }));
  const params = new URLSearchParams({
    client_id: config.clientId ?? '',
    response_type: 'code',
    redirect_uri: redirectUri(),
    scope: config.scope,
    state,
    code_challenge_method: 'S256',
    code_challenge: challenge,
    ...config.extra,
  });
  return `${config.url}?${params}`;
}

export interface ProviderReturn {
  provider: RedirectProvider;
  code: string;
  codeVerifier: string;
}

/**
 * The provider's answer in the page address, if this page load is one (and its state is the one
 * this browser sent): taken out of the address at once, so a reload does not reuse the code.
 */
export function takeProviderReturn(): ProviderReturn | undefined {
  const params = new URLSearchParams(window.location.search);
  const state = params.get('state');
  const code = params.get('code');
  if (!state || !code) return undefined;
  window.history.replaceState(null, '', `${redirectUri()}#/settings`);
  const pending = JSON.parse(sessionStorage.getItem(PENDING_KEY) ?? 'null') as { state: string; codeVerifier: string } | null;
  sessionStorage.removeItem(PENDING_KEY);
  if (!pending || pending.state !== state) return undefined;
  const provider = state.split('.')[0];
  if (provider !== 'spotify' && provider !== 'youtube') return undefined;
  return { provider, code, codeVerifier: pending.codeVerifier };
}
