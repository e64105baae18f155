import type { RoomState, Song } from '../api/types';
import type { ChatMessage } from '../chat/chatState';
import { useT } from '../i18n/i18n';

/** The listener's own queue: its first eight songs, or a pointer to the crates when it is empty. */
export function QueuePanel({ songs }: { songs: Song[] | undefined }) {
  const t = useT();
  return (
    <section className="dj-queue" aria-labelledby="queue-title">
      <h2 id="queue-title">{t.yourQueue}</h2>
      {songs && songs.length === 0 && (
        <p className="muted">
          {t.emptyQueue} <a href="#/crates">{t.crates}</a>
        </p>
      )}
      <ol>
        {songs?.slice(0, 8).map((song) => (
          <li key={song.crateSongUuid}>
            {song.trackName} <span className="muted">— {song.artistName}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Who waits for a seat, in order (shown only when someone does). */
export function WaitlistPanel({ state }: { state: RoomState }) {
  const t = useT();
  if ((state.waitlist?.length ?? 0) === 0) return null;
  return (
    <section aria-labelledby="waitlist-title">
      <h2 id="waitlist-title">{t.waitlist}</h2>
      <ol>
        {state.waitlist!.map((uuid) => (
          <li key={uuid}>{state.allUserData[uuid]?.userProfile?.nickname ?? uuid}</li>
        ))}
      </ol>
    </section>
  );
}

/** The room's pinned messages after pinning `m` (one at a time), or none when `m` is null. */
export function pinnedMessages(m: ChatMessage | null, pinnedBy: { name: string | undefined; uuid: string | null }) {
  return m
    ? [
        {
          message: {
            message: m.text,
            userName: m.userName,
            avatarId: m.avatarId,
            color: m.color,
            userUuid: m.userUuid,
            date: new Date(m.sentAt).toISOString(),
            pinnedByName: pinnedBy.name,
            pinnedByUUID: pinnedBy.uuid,
          },
        },
      ]
    : [];
}
