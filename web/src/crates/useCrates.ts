// Crates through React Query, with the optimistic edits of crateEdits.ts.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { keys } from '../api/keys';
import { crates as crateApi, type SongToAdd } from '../api/spinroom';
import type { Crate, Song } from '../api/types';
import { moveSong, newPlaylistName, optimisticEdit, positionsDiffer, removeSong, sortCrates } from './crateEdits';

export function useCrateList() {
  return useQuery({ queryKey: keys.crates, queryFn: async () => sortCrates(await crateApi.list()) });
}

export function useCrateSongs(crate: Crate | undefined) {
  return useQuery({ queryKey: keys.crateSongs(crate?.crateUuid ?? 'none'), queryFn: () => crateApi.songs(crate!), enabled: !!crate });
}

export function useCrateActions() {
  const client = useQueryClient();
  const refreshList = () => client.invalidateQueries({ queryKey: keys.crates });
  const songsKey = (crate: Crate) => keys.crateSongs(crate.crateUuid);
  const afterSongsChange = (crate: Crate) => {
    if (crate.special === 'queue') void client.invalidateQueries({ queryKey: keys.queue });
    void refreshList();
  };
  const edit = (crate: Crate, next: (songs: Song[]) => Song[], send: () => Promise<unknown>) =>
    optimisticEdit({
      read: () => client.getQueryData<Song[]>(songsKey(crate)),
      write: (songs) => client.setQueryData(songsKey(crate), songs),
      next,
      send,
      settle: (answer, optimistic) => {
        // The server's order wins: refetch when its positions differ from ours.
        if (!Array.isArray(answer) || positionsDiffer(optimistic, answer as Song[]))
          void client.invalidateQueries({ queryKey: songsKey(crate) });
        afterSongsChange(crate);
      },
    });

  return {
    create: useMutation({
      mutationFn: async () => crateApi.create(newPlaylistName(client.getQueryData<Crate[]>(keys.crates) ?? (await crateApi.list()))),
      onSuccess: refreshList,
    }),
    rename: useMutation({
      mutationFn: ({ crate, name }: { crate: Crate; name: string }) => crateApi.rename(crate, name),
      onSuccess: refreshList,
    }),
    remove: useMutation({ mutationFn: (crate: Crate) => crateApi.remove(crate), onSuccess: refreshList }),
    shuffle: useMutation({
      mutationFn: (crate: Crate) => crateApi.shuffle(crate),
      onSuccess: (answer, crate) => {
        client.setQueryData(songsKey(crate), answer.songs);
        afterSongsChange(crate);
      },
    }),
    move: useMutation({
      mutationFn: ({ crate, song, to }: { crate: Crate; song: Song; to: number }) =>
        edit(
          crate,
          (songs) => moveSong(songs, song.crateSongUuid!, to),
          () => crateApi.moveSong(crate, song.crateSongUuid!, to),
        ),
    }),
    removeSong: useMutation({
      mutationFn: ({ crate, song }: { crate: Crate; song: Song }) =>
        edit(
          crate,
          (songs) => removeSong(songs, song.crateSongUuid!),
          () => crateApi.removeSong(crate, song.crateSongUuid!),
        ),
    }),
    add: useMutation({
      mutationFn: ({ crate, songs }: { crate: Crate; songs: SongToAdd[] }) => crateApi.addSongs(crate, songs),
      onSuccess: (_answer, { crate }) => {
        void client.invalidateQueries({ queryKey: songsKey(crate) });
        afterSongsChange(crate);
      },
    }),
  };
}
