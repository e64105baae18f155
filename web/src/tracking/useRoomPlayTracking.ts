import { useEffect, useRef } from 'react';
import { subscriptions } from '../api/shop';
import type { Room, RoomState } from '../api/types';
import { heardProvider, onHeardChange } from '../playback/heard';
import { useSession } from '../session/session';
import { sendPlayEvent } from './kinesis';
import { trackRoomPlays } from './roomTracking';

/** Reports this listener's plays in the room to the audit service while the room is open (signed in only). */
export function useRoomPlayTracking(room: Room, state: RoomState | undefined, volume: number) {
  const s = useSession();
  const latest = useRef({ state, volume });
  latest.current = { state, volume };

  useEffect(() => {
    const userUuid = s.userUuid;
    if (!s.isLoggedIn || !userUuid) return;
    let stop: (() => void) | undefined;
    let gone = false;
    void subscriptions
      .mine()
      .then(
        (answer) => answer.active?.level ?? '',
        // Tracking does not wait on the payment service: without it the level is unknown.
        () => '',
      )
      .then((subscriptionLevel) => {
        if (gone) return;
        stop = trackRoomPlays({
          roomSlug: room.slug,
          roomOwnerUuid: room.ownerUuid,
          userUuid,
          state: () => latest.current.state,
          volume: () => latest.current.volume,
          subscriptionLevel,
          send: sendPlayEvent,
          heard: heardProvider,
          onHeardChange,
        });
      });
    // A closed tab runs no cleanup: its open play's total goes out on pagehide (the request is keepalive).
    const end = () => {
      gone = true;
      stop?.();
      stop = undefined;
    };
    window.addEventListener('pagehide', end);
    return () => {
      window.removeEventListener('pagehide', end);
      end();
    };
  }, [room.slug, room.ownerUuid, s.isLoggedIn, s.userUuid]);
}
