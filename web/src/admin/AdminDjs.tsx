import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PANEL_PAGE_SIZE } from '../api/communities';
import { keys } from '../api/keys';
import { djs } from '../api/panel';
import { ErrorNote } from '../app/ErrorNote';
import { href } from '../app/router';
import { useNicknames } from '../communities/useNicknames';
import { fill, formatDate, plural, useLocale, useT } from '../i18n/i18n';
import { usePanelT } from './strings';
import { Pager } from './Pager';

/** DJs by their fans, most first (admins); one DJ's numbers and fans. */
export function AdminDjs() {
  const t = useT();
  const p = usePanelT();
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  const list = useQuery({ queryKey: keys.adminDjs(page), queryFn: () => djs.list(page), placeholderData: keepPreviousData });
  const rows = list.data?.data ?? [];
  const nameOf = useNicknames(rows.map((d) => d.djUuid));
  const [id, setId] = useState('');
  const [wanted, setWanted] = useState('');
  return (
    <section className="card stack" aria-labelledby="admin-djs-title">
      <h2 id="admin-djs-title">{p.panelDjs}</h2>
      <form
        className="row"
        aria-label={p.panelFindDj}
        onSubmit={(e) => {
          e.preventDefault();
          setWanted(id.trim().toLowerCase());
        }}
      >
        <label>
          {p.panelFindDj}
          <input required pattern="[0-9a-fA-F\-]{36}" value={id} onChange={(e) => setId(e.target.value)} />
        </label>
        <button type="submit">{t.open}</button>
      </form>
      {wanted && <DjFans key={wanted} djUuid={wanted} withName />}
      <ErrorNote error={list.error} />
      {list.data?.data.length === 0 && <p className="muted">{p.panelNoDjs}</p>}
      <ul className="stack" aria-label={p.panelDjs}>
        {rows.map((dj) => (
          <li key={dj.djUuid} className="stack" aria-label={nameOf(dj.djUuid)}>
            <div className="row">
              <a href={href({ name: 'profile', userUuid: dj.djUuid })}>
                <strong>{nameOf(dj.djUuid)}</strong>
              </a>
              <span className="small">{plural(dj.fans, t.fansCount)}</span>
              <span className="muted small">{fill(p.panelFollowing, { count: dj.following })}</span>
              <button
                type="button"
                aria-expanded={open === dj.djUuid}
                onClick={() => setOpen(open === dj.djUuid ? null : dj.djUuid)}
                aria-label={`${p.panelShowFans} ${nameOf(dj.djUuid)}`}
              >
                {p.panelShowFans}
              </button>
            </div>
            {open === dj.djUuid && <DjFans djUuid={dj.djUuid} />}
          </li>
        ))}
      </ul>
      <Pager page={page} pages={Math.ceil((list.data?.total ?? 0) / PANEL_PAGE_SIZE)} onPage={setPage} label={p.panelDjs} />
    </section>
  );
}

/** A DJ's numbers and fans (`withName`: their name and fan count first, for a DJ looked up by id). */
function DjFans({ djUuid, withName = false }: { djUuid: string; withName?: boolean }) {
  const t = useT();
  const p = usePanelT();
  const locale = useLocale();
  const detail = useQuery({ queryKey: keys.adminDj(djUuid), queryFn: () => djs.withFans(djUuid) });
  // Plays are the audit service's (staff): a DJ with none reads zero.
  const plays = useQuery({ queryKey: keys.adminDjPlays(djUuid), queryFn: () => djs.plays(djUuid) });
  const fans = detail.data?.fans.data ?? [];
  const nameOf = useNicknames([djUuid, ...fans.map((f) => f.fanUuid)]);
  return (
    <section className="stack" aria-label={nameOf(djUuid)}>
      <ErrorNote error={detail.error} />
      {withName && detail.data && (
        <p>
          <strong>{nameOf(djUuid)}</strong> {plural(detail.data.dj.fans, t.fansCount)} ·{' '}
          {fill(p.panelFollowing, { count: detail.data.dj.following })}
        </p>
      )}
      {plays.data && (
        <p className="small" data-testid="dj-plays">
          {fill(p.panelPlays, {
            plays: plays.data.totalPlayed,
            minutes: Math.round(plays.data.playedSeconds / 60),
            thirty: plays.data.thirtySecondPlays,
          })}
        </p>
      )}
      {detail.data?.dj.lastFollowedAt && (
        <p className="muted small">{fill(p.panelLastFollow, { when: formatDate(detail.data.dj.lastFollowedAt, 'dateTime', locale) })}</p>
      )}
      <ul aria-label={p.panelFans}>
        {fans.map((f) => (
          <li key={f.id}>
            <a href={href({ name: 'profile', userUuid: f.fanUuid })}>{nameOf(f.fanUuid)}</a>{' '}
            <span className="muted small">{formatDate(f.createdAt, 'date', locale)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
