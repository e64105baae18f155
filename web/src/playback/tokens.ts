// The listener's provider tokens, from the BFF (the user service keeps the
// links: bff/src/routes/user/providers.ts). Access tokens are kept until a
// minute before they end; `fresh` asks for a new one (after a provider's 401/403).
import { ApiError } from '../api/errors';
import { api } from '../api/client';
import { session } from '../session/session';
import { PlaybackFailure } from './loadScript';
import type { ProviderTokens } from './types';

const USER = '/api/user-service';

interface AccessToken {
  accessToken: string;
  /** Seconds left. */
  expiresIn: number;
}

/** The providers the listener linked (the settings screen's links), by the names the catalogue uses. */
export async function linkedProviders(): Promise<Set<string>> {
  if (!session.get().isLoggedIn) return new Set();
  try {
    const { links } = await api.get<{ links: Array<{ provider: string; client: string }> }>(`${USER}/users/music-providers`);
    return new Set(links.filter((l) => l.client === 'web').map((l) => (l.provider === 'soundcloud' ? 'soundCloudPublic' : l.provider)));
  } catch {
    return new Set();
  }
}

function refused(error: unknown): never {
  // Not linked (404), a link the provider revoked (403), a provider that is down (5xx): nothing to sign in with.
  if (error instanceof ApiError) throw new PlaybackFailure('tokenExpired');
  throw error;
}

class Cached {
  private value: { token: string; until: number } | undefined;
  constructor(private readonly fetchToken: (fresh: boolean) => Promise<AccessToken>) {}
  async get(fresh = false): Promise<string> {
    if (!fresh && this.value && this.value.until > Date.now()) return this.value.token;
    const answer = await this.fetchToken(fresh).catch(refused);
    this.value = { token: answer.accessToken, until: Date.now() + Math.max(0, answer.expiresIn - 60) * 1000 };
    return answer.accessToken;
  }
}

/** The tokens of the session whose bearer is `bearer` (a new session gets a new set). */
export function providerTokens(bearer: string | null): ProviderTokens {
  const me = () => encodeURIComponent(session.get().userUuid ?? '');
  const spotify = new Cached(() => api.post<AccessToken>(`${USER}/spotify/refresh-token`));
  const soundCloud = new Cached(async (fresh) => {
    if (session.get().isLoggedIn) {
      try {
        // After a 403 (a token SoundCloud stopped accepting) the link's token is refreshed, not read again.
        return fresh
          ? await api.post<AccessToken>(`${USER}/soundcloud/access-token/refresh`)
          : await api.get<AccessToken>(`${USER}/soundcloud/access-token/${me()}`);
      } catch (error) {
        // Not linked (404), or a link SoundCloud no longer honours: the app's public token plays public tracks.
        if (!(error instanceof ApiError)) throw error;
      }
    }
    return api.get<AccessToken>(`${USER}/soundcloud/public-token`);
  });
  return {
    bearer: () => bearer,
    spotify: (fresh) => spotify.get(fresh),
    soundCloud: (fresh) => soundCloud.get(fresh),
    apple: () => api.get<{ developerToken: string; userToken: string }>(`${USER}/apple/user-token/${me()}`).catch(refused),
  };
}
