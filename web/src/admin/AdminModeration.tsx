import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { keys } from '../api/keys';
import { type ModerationFilter, moderation } from '../api/panel';
import { ErrorNote } from '../app/ErrorNote';
import { useNicknames } from '../communities/useNicknames';
import { formatDate, plural, useLocale } from '../i18n/i18n';
import { usePanelT } from './strings';
import { Pager } from './Pager';

const NO_FILTER: ModerationFilter = { type: '', user: '', from: '', to: '' };

/** The moderation log (the audit service's, staff): who did what to whom and when, filtered by type, user and days. */
export function AdminModeration() {
  const p = usePanelT();
  const locale = useLocale();
  const [draft, setDraft] = useState<ModerationFilter>(NO_FILTER);
  const [filter, setFilter] = useState<ModerationFilter>(NO_FILTER);
  const [page, setPage] = useState(1);
  const types = useQuery({ queryKey: keys.moderationTypes, queryFn: moderation.types, staleTime: Number.POSITIVE_INFINITY });
  const list = useQuery({
    queryKey: keys.moderationActions(filter, page),
    queryFn: () => moderation.list(filter, page),
    placeholderData: keepPreviousData,
  });
  const actions = list.data?.data ?? [];
  const nameOf = useNicknames(actions.flatMap((a) => [a.actorUuid, a.targetUuid]));
  return (
    <section className="card stack" aria-labelledby="admin-moderation-title">
      <h2 id="admin-moderation-title">{p.panelModeration}</h2>
      <form
        className="row"
        aria-label={p.panelFilter}
        onSubmit={(e) => {
          e.preventDefault();
          setFilter({ ...draft, user: draft.user.trim() });
          setPage(1);
        }}
      >
        <label>
          {p.panelActionType}
          <select value={draft.type} onChange={(e) => setDraft({ ...draft, type: e.target.value })}>
            <option value="">{p.panelAnyType}</option>
            {types.data?.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </label>
        <label>
          {p.panelUserUuid}
          <input
            value={draft.user}
            pattern="[0-9a-fA-F\-]{36}"
            placeholder="00000000-0000-0000-0000-000000000000"
            onChange={(e) => setDraft({ ...draft, user: e.target.value })}
          />
        </label>
        <label>
          {p.panelFrom}
          <input type="date" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} />
        </label>
        <label>
          {p.panelTo}
          <input type="date" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
        </label>
        <button type="submit">{p.panelFilter}</button>
        <button
          type="button"
          onClick={() => {
            setDraft(NO_FILTER);
            setFilter(NO_FILTER);
            setPage(1);
          }}
        >
          {p.panelClearFilter}
        </button>
      </form>
      <ErrorNote error={list.error ?? types.error} />
      {list.data && <p className="muted small">{plural(list.data.total, p.panelActionsTotal)}</p>}
      {list.data?.data.length === 0 && <p className="muted">{p.panelNoActions}</p>}
      {actions.length > 0 && (
        <div className="table-scroll">
          <table className="admin-table">
            <caption className="sr-only">{p.panelModeration}</caption>
            <thead>
              <tr>
                <th scope="col">{p.panelWhen}</th>
                <th scope="col">{p.panelActionType}</th>
                <th scope="col">{p.panelWho}</th>
                <th scope="col">{p.panelToWhom}</th>
                <th scope="col">{p.panelRole}</th>
                <th scope="col">{p.panelRoom}</th>
              </tr>
            </thead>
            <tbody>
              {actions.map((a) => (
                <tr key={a.id}>
                  <td>{formatDate(a.createdAt, 'dateTime', locale)}</td>
                  <td>{a.actionType}</td>
                  <td>
                    {nameOf(a.actorUuid)}
                    {a.actorTokenRole && <span className="muted small"> ({a.actorTokenRole})</span>}
                  </td>
                  <td>{nameOf(a.targetUuid)}</td>
                  <td>{[a.previousRole, a.role].filter(Boolean).join(' → ')}</td>
                  <td className="small">{a.roomUuid ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} pages={list.data?.pageCount ?? 1} onPage={setPage} label={p.panelModeration} />
    </section>
  );
}
