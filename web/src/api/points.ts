// Seasons, rankings and avatars (issue 16) under the points service
// (/api/merch-service). Components call these through React Query.
import { api, USER } from './client';
import type { UserProfile } from './types';

const MERCH = '/api/merch-service';

export interface Season {
  id: string;
  name: string;
  start: string;
  /** The next season's start; null for the latest season. */
  end: string | null;
}

export interface RankingStatus {
  id: string;
  userUuid: string;
  seasonId: string | null;
  seasonName: string | null;
  balance: number;
  /** 1 for the highest balance; 0 without points. */
  rank: number;
}

export interface SeasonRanking {
  season: Season;
  total: number;
  rankings: RankingStatus[];
  /** The caller's own place (null without points). */
  me: RankingStatus | null;
}

export type AvatarStatus = 'PUBLIC' | 'PRIVATE' | 'SEASON_AWARD' | 'SUBSCRIBER_ONLY';

export interface CatalogueAvatar {
  slug: string;
  name: string;
  status: AvatarStatus;
  discordOnly: boolean;
  seasonId: string | null;
  rankThreshold: number | null;
}

/** A ranking page holds this many. */
export const RANKING_PAGE = 20;

export const points = {
  /** The current season's ranking; 404 "There is no current season" between seasons. */
  currentRanking: (skip: number, take = RANKING_PAGE) =>
    api.get<SeasonRanking>(`${MERCH}/points/season-ranking-current`, { query: { take, skip } }),
  currentSeason: () => api.get<Season>(`${MERCH}/seasons/current`),
  /** The avatars the caller may wear (public ones and those assigned to them). */
  wearable: () => api.get<CatalogueAvatar[]>(`${MERCH}/avatars`),
  /** Every avatar but the private ones: what can be earned or bought too. */
  allAvatars: () => api.get<CatalogueAvatar[]>(`${MERCH}/all-avatars`),
};

/**
 * Several users' profiles, asked 20 at a time: the BFF's query parser (qs)
 * reads at most 20 repeated values as a list, so 21 `users` are refused (400)
 * although the path allows 150.
 */
export async function profilesOf(uuids: string[]): Promise<UserProfile[]> {
  const chunks: string[][] = [];
  for (let i = 0; i < uuids.length; i += 20) chunks.push(uuids.slice(i, i + 20));
  const answers = await Promise.all(
    chunks.map((users) => api.get<Array<{ userProfile: UserProfile }>>(`${USER}/users/profiles`, { query: { users } })),
  );
  return answers.flat().map((p) => p.userProfile);
}
