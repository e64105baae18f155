import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { NowPlaying } from '../api/types';
import type { Listener } from '../playback/choose';
import { linkedProviders, providerTokens } from '../playback/tokens';
import { session as sessionStore, useSession } from '../session/session';
import type { LiveRoom } from './liveRoom';
import { type PlayerStatus, SyncedPlayer } from './player';

const IDLE: PlayerStatus = { state: 'idle' };
const noop = () => () => {};

/** The room's player: built on the room's <audio>, a place for video and the room's clock; plays what the room plays at the chosen volume. */
export function useRoomAudio(live: LiveRoom, nowPlaying: NowPlaying | null) {
  const s = useSession();
  const audio = useRef<HTMLAudioElement>(null);
  const video = useRef<HTMLDivElement>(null);
  const [player, setPlayer] = useState<SyncedPlayer>();
  const status = useSyncExternalStore(player?.subscribe ?? noop, () => player?.snapshot ?? IDLE);
  const [volume, setVolume] = useState(0.8);

  useEffect(() => {
    const element = audio.current;
    if (!element) return;
    let listener: Promise<Listener> | undefined;
    const storefront = () => sessionStore.get().appleStorefrontId || 'us';
    const p = new SyncedPlayer(
      live.clock,
      {
        audio: element,
        videoHost: () => video.current ?? document.body,
        tokens: providerTokens(s.token),
        storefront,
        country: storefront,
        quality: () => sessionStore.get().audioQuality,
      },
      () => {
        const loggedIn = sessionStore.get().isLoggedIn;
        listener ??= linkedProviders().then((linked) => ({ loggedIn, linked }));
        return listener;
      },
    );
    setPlayer(p);
    return () => p.stop();
  }, [live, s.token]);

  useEffect(() => {
    void player?.play(nowPlaying);
  }, [player, nowPlaying]);
  useEffect(() => player?.setVolume(volume), [player, volume]);

  return { audio, video, status, volume, setVolume, resume: () => void player?.resume() };
}
