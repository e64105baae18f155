// React Query keys, all in one place.
export const keys = {
  session: ['session'] as const,
  myProfile: ['profile', 'me'] as const,
  profile: (uuid: string) => ['profile', uuid] as const,
  /** Every lobby list shares this prefix, so favouriting can flip them all at once. */
  roomLists: ['rooms', 'list'] as const,
  roomList: (name: 'public' | 'promoted' | 'owned' | 'recent' | 'favorites') => ['rooms', 'list', name] as const,
  favoriteEntries: ['rooms', 'favorite-entries'] as const,
  room: (slug: string) => ['rooms', 'one', slug] as const,
  recentSongs: (slug: string) => ['rooms', 'recent-songs', slug] as const,
  crates: ['crates'] as const,
  crateSongs: (crateUuid: string) => ['crates', 'songs', crateUuid] as const,
  queue: ['crates', 'queue'] as const,
  /** Every song of a crate, for the duplicate check (under `queue` for the queue, so its refreshes reach it). */
  crateAllSongs: (crate: { crateUuid: string; special?: string }) =>
    crate.special === 'queue' ? (['crates', 'queue', 'all'] as const) : (['crates', 'all', crate.special || crate.crateUuid] as const),
  publicCrates: (q: string) => ['crates', 'public', q] as const,
  providers: ['search', 'providers'] as const,
  search: (provider: string, q: string) => ['search', provider, q] as const,
  uploads: ['uploads'] as const,
  chatToken: ['chat', 'token'] as const,
  emails: ['account', 'emails'] as const,
  passkeys: ['account', 'passkeys'] as const,
  identities: ['account', 'identities'] as const,
  providerLinks: ['account', 'provider-links'] as const,
  adminUsers: (search: string, page: number) => ['admin', 'users', search, page] as const,
  /** The caller's token account (the header's balance, the shop, the room's consumables). */
  tokenAccount: ['tokens', 'account'] as const,
  consumables: ['shop', 'consumables'] as const,
  tokenBundles: ['shop', 'bundles'] as const,
  product: (id: string) => ['shop', 'product', id] as const,
  seasonRanking: (skip: number) => ['points', 'ranking', 'current', skip] as const,
  profiles: (uuids: string[]) => ['profile', 'batch', ...uuids] as const,
  wearableAvatars: ['points', 'avatars', 'mine'] as const,
  allAvatars: ['points', 'avatars', 'all'] as const,
  currentSeason: ['points', 'season', 'current'] as const,
};
