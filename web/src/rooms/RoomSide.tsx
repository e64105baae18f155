import type { RoomState, Song } from '../api/types';
import { Avatar } from '../avatars/Avatar';
import type { ChatMessage } from '../chat/chatState';
import { DuplicateMark } from '../crates/DuplicateMark';
import { duplicatesIn } from '../crates/sameness';
import { plural, useLocale, useT } from '../i18n/i18n';
import { playingDj } from '../stage/booth';
import { nickname } from './roomState';

/** The listener's own queue: its first eight songs, or a pointer to the crates when it is empty. */
export function QueuePanel({ songs }: { songs: Song[] | undefined }) {
  const t = useT();
  // Spec 002's sameness rule: a song that repeats an earlier one is marked.
  const duplicates = duplicatesIn(songs ?? []);
  return (
    <section className="dj-queue" aria-labelledby="queue-title">
      <h2 id="queue-title">{t.yourQueue}</h2>
      {songs && songs.length === 0 && (
        <p className="muted">
          {t.emptyQueue} <a href="#/crates">{t.crates}</a>
        </p>
      )}
      <ol>
        {songs?.slice(0, 8).map((song, i) => (
          <li key={song.crateSongUuid}>
            {song.trackName} <span className="muted">— {song.artistName}</span> <DuplicateMark of={duplicates.get(i)} />
          </li>
        ))}
      </ol>
    </section>
  );
}

function PersonRow({ state, uuid, note }: { state: RoomState; uuid: string; note?: string }) {
  const profile = state.allUserData[uuid]?.userProfile;
  return (
    <li data-person={uuid}>
      <Avatar avatarId={profile?.avatarId} color={profile?.color} seed={uuid} size={28} decorative />
      <span className="person-name">{nickname(state, uuid)}</span>
      {note && <span className="muted small">{note}</span>}
    </li>
  );
}

/** Everyone in the room as a list (the scene drawn as text): the DJs in turn order, who waits for a seat in order, the floor. */
export function PeoplePanel({ state }: { state: RoomState }) {
  const t = useT();
  const locale = useLocale();
  const playing = playingDj(state);
  const count = state.djs.length + state.audienceUsers.length;
  return (
    <section className="people" aria-labelledby="people-title">
      <h2 id="people-title">
        {t.tabPeople} <span className="muted small">({plural(count, t.people, locale)})</span>
      </h2>
      <h3>{t.djs}</h3>
      <ol className="people-list">
        {state.djs.map((d) => (
          <PersonRow key={d.uuid} state={state} uuid={d.uuid} note={d.uuid === playing ? t.nowPlaying : undefined} />
        ))}
      </ol>
      {(state.waitlist?.length ?? 0) > 0 && (
        <>
          <h3>{t.waitlist}</h3>
          <ol className="people-list" data-testid="waitlist">
            {state.waitlist!.map((uuid) => (
              <PersonRow key={uuid} state={state} uuid={uuid} />
            ))}
          </ol>
        </>
      )}
      <h3>{t.onTheFloor}</h3>
      <ul className="people-list">
        {state.audienceUsers.map((u) => (
          <PersonRow key={u.uuid} state={state} uuid={u.uuid} />
        ))}
      </ul>
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
