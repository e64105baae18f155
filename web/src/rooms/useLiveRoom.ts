import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { keys } from '../api/keys';
import type { Room } from '../api/types';
import { useSession } from '../session/session';
import { LiveRoom, type LiveSnapshot } from './liveRoom';
import { awaitListedPlay } from './recentPlays';

/** The room's live connection: opened for the room and password, closed on leaving; the feed's events refresh the REST queries they change. */
export function useLiveRoom(room: Room, password: string): { live: LiveRoom; snapshot: LiveSnapshot } {
  const s = useSession();
  const client = useQueryClient();
  // biome-ignore lint/correctness/useExhaustiveDependencies: one live connection per room and password; the token is read when used
  const live = useMemo(
    () => new LiveRoom({ baseUrl: window.location.origin, roomUuid: room.uuid, password: password || undefined, token: () => s.token }),
    [room.uuid, password],
  );
  const snapshot: LiveSnapshot = useSyncExternalStore(live.subscribe, () => live.snapshot);

  useEffect(() => {
    live.start();
    const off = live.onEvent((name) => {
      if (name === 'playedSong') {
        void client.invalidateQueries({ queryKey: keys.queue });
        void client.invalidateQueries({ queryKey: keys.recentSongs(room.slug) });
      }
      if (name === 'updatedRoomSettings') void client.invalidateQueries({ queryKey: keys.room(room.slug) });
    });
    // The play as last seen (by its start): once another replaces it, it has ended and is awaited in the recent songs.
    let playing = live.state?.nowPlaying?.startTime;
    let awaiting: (() => void) | undefined;
    const track = live.subscribe(() => {
      if (!live.state) return; // rejoining: the next state says what plays
      const ended = playing;
      playing = live.state.nowPlaying?.startTime;
      if (ended === undefined || ended === playing) return;
      awaiting?.();
      awaiting = awaitListedPlay(client, room.slug, ended);
    });
    return () => {
      off();
      track();
      awaiting?.();
      live.stop();
    };
  }, [live, client, room.slug]);

  return { live, snapshot };
}
