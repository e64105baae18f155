// Lobby data through React Query: each list carries `favorited`, and
// favouriting flips it in every cached list at once, then refreshes them.
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { keys } from '../api/keys';
import { rooms as roomApi, type RoomFavorite } from '../api/spinroom';
import type { Room } from '../api/types';
import { useSession } from '../session/session';
import { favoritesWith, markFavorites, withFavorited } from './favorites';

export type ListName = 'public' | 'promoted' | 'owned' | 'recent' | 'favorites';

const LIVE_REFRESH_MS = 15_000;

const fetchers: Record<ListName, () => Promise<Room[]>> = {
  public: roomApi.public,
  promoted: roomApi.promoted,
  owned: roomApi.owned,
  recent: roomApi.recent,
  favorites: roomApi.favorites,
};

function favoriteEntries(client: QueryClient, loggedIn: boolean): Promise<RoomFavorite[]> {
  if (!loggedIn) return Promise.resolve([]);
  return client.query({ queryKey: keys.favoriteEntries, queryFn: roomApi.favoriteEntries, staleTime: 5_000 });
}

export function useRoomList(name: ListName) {
  const client = useQueryClient();
  const { isLoggedIn } = useSession();
  return useQuery({
    queryKey: keys.roomList(name),
    enabled: isLoggedIn || name === 'public' || name === 'promoted',
    // Who is in each room and what plays change all the time: the lobby looks again while it is shown.
    refetchInterval: LIVE_REFRESH_MS,
    queryFn: async () => {
      const [list, favorites] = await Promise.all([fetchers[name](), favoriteEntries(client, isLoggedIn)]);
      return markFavorites(list, new Set(favorites.map((f) => f.roomUuid)));
    },
  });
}

export function useToggleFavorite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ room, favorited }: { room: Room; favorited: boolean }) => {
      if (favorited) return roomApi.addFavorite(room.uuid);
      const entries = await client.query({ queryKey: keys.favoriteEntries, queryFn: roomApi.favoriteEntries });
      const entry = entries.find((f) => f.roomUuid === room.uuid);
      if (entry) await roomApi.removeFavorite(entry.id);
      return undefined;
    },
    onMutate: async ({ room, favorited }) => {
      await client.cancelQueries({ queryKey: keys.roomLists });
      const before = client.getQueriesData<Room[]>({ queryKey: keys.roomLists });
      client.setQueriesData<Room[]>({ queryKey: keys.roomLists }, (list) => withFavorited(list, room.uuid, favorited));
      client.setQueryData<Room[]>(keys.roomList('favorites'), (list) => favoritesWith(list, room, favorited));
      return { before };
    },
    onError: (_error, _input, context) => {
      for (const [key, data] of context?.before ?? []) client.setQueryData(key, data);
    },
    onSettled: () => {
      void client.invalidateQueries({ queryKey: keys.favoriteEntries });
      void client.invalidateQueries({ queryKey: keys.roomLists });
    },
  });
}
