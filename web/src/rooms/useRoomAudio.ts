import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { NowPlaying } from '../api/types';
import { useSession } from '../session/session';
import type { LiveRoom } from './liveRoom';
import { type PlayerStatus, SyncedPlayer } from './player';

const IDLE: PlayerStatus = { state: 'idle' };
const noop = () => () => {};

/** The room's audio player: built on the room's <audio> and clock, plays what the room plays at the chosen volume. */
export function useRoomAudio(live: LiveRoom, nowPlaying: NowPlaying | null) {
  const s = useSession();
  const audio = useRef<HTMLAudioElement>(null);
  const [player, setPlayer] = useState<SyncedPlayer>();
  const status = useSyncExternalStore(player?.subscribe ?? noop, () => player?.snapshot ?? IDLE);
  const [volume, setVolume] = useState(0.8);

  useEffect(() => {
    if (!audio.current) return;
    const p = new SyncedPlayer(audio.current, live.clock, () => s.token);
    setPlayer(p);
    return () => p.stop();
  }, [live, s.token]);

  useEffect(() => {
    void player?.play(nowPlaying);
  }, [player, nowPlaying]);
  useEffect(() => player?.setVolume(volume), [player, volume]);

  return { audio, status, volume, setVolume, resume: () => void player?.resume() };
}
