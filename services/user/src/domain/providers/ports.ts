/** The music providers a user links (spec 000's provider token paths). */
export type LinkedProvider = 'apple' | 'soundcloud' | 'spotify' | 'youtube';
/** Which of the platform's registered apps a link was made with (SoundCloud has a mobile app of its own). */
export type ProviderClient = 'web' | 'mobile';

/** What a provider's OAuth token endpoint answered. */
export interface OAuthTokens {
  accessToken: string;
  /** Absent when the provider keeps the old one (Google, often Spotify). */
  refreshToken?: string;
  expiresInSeconds: number;
  scope?: string;
}

/**
 * One OAuth app at one provider's token endpoint. Failures are AppErrors: 400
 * when the provider refuses the code or refresh token (`invalid_grant`), 502
 * when it fails otherwise, 503 when the app has no credentials.
 */
export interface OAuthClient {
  readonly label: string;
  exchangeCode(input: { code: string; redirectUri: string; codeVerifier?: string }): Promise<OAuthTokens>;
  refresh(refreshToken: string): Promise<OAuthTokens>;
  clientCredentials(): Promise<OAuthTokens>;
}

/** Signs Apple Music developer tokens (ES256); 503 without the MusicKit key. */
export interface AppleDeveloperTokens {
  token(): Promise<string>;
}

/** A link as stored: its tokens are ciphertexts (TokenCipher), never plain. */
export interface StoredLink {
  userUuid: string;
  provider: LinkedProvider;
  client: ProviderClient;
  accessToken: string | null;
  accessExpiresAt: Date | null;
  refreshToken: string | null;
  scope: string | null;
}

export interface ProviderLinkStore {
  find(userUuid: string, provider: LinkedProvider, client: ProviderClient): Promise<StoredLink | null>;
  /** Inserts or replaces the link. */
  save(link: StoredLink): Promise<void>;
  /** True when there was a link to delete. */
  delete(userUuid: string, provider: LinkedProvider, client: ProviderClient): Promise<boolean>;
  /** The user's links, by provider then app, with when each was last written. */
  list(userUuid: string): Promise<Array<StoredLink & { updatedAt: Date }>>;
}
