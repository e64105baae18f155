import type { UseQueryResult } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ErrorNote } from '../app/ErrorNote';
import { fill, useT } from '../i18n/i18n';
import { Pager } from './Pager';
import { usePanelT } from './strings';

/** A page of one of the panel's lists: its error, a line when it is empty, its rows and the pager. */
export function PagedRows<T>({
  list,
  label,
  empty,
  page,
  onPage,
  row,
}: {
  list: UseQueryResult<{ data: T[]; pageCount: number }>;
  label: string;
  empty: string;
  page: number;
  onPage: (page: number) => void;
  row: (item: T) => ReactNode;
}) {
  return (
    <>
      <ErrorNote error={list.error} />
      {list.data?.data.length === 0 && <p className="muted">{empty}</p>}
      <ul className="stack" aria-label={label}>
        {list.data?.data.map(row)}
      </ul>
      <Pager page={page} pages={list.data?.pageCount ?? 1} onPage={onPage} label={label} />
    </>
  );
}

/** A list's search box: a new search goes back to the first page. */
export function SearchBox({ label, value, onSearch }: { label: string; value: string; onSearch: (value: string) => void }) {
  return (
    <label>
      {label}
      <input type="search" value={value} onChange={(e) => onSearch(e.target.value)} />
    </label>
  );
}

/** Delete, then "Yes, delete {name}" or Cancel: nothing is deleted on one click. */
export function ConfirmDelete({ name, pending, onDelete }: { name: string; pending: boolean; onDelete: () => void }) {
  const t = useT();
  const p = usePanelT();
  const [confirming, setConfirming] = useState(false);
  return confirming ? (
    <>
      <button type="button" className="danger" disabled={pending} onClick={onDelete}>
        {fill(p.panelConfirmDelete, { name })}
      </button>
      <button type="button" onClick={() => setConfirming(false)}>
        {t.cancel}
      </button>
    </>
  ) : (
    <button type="button" onClick={() => setConfirming(true)} aria-label={`${t.delete} ${name}`}>
      {t.delete}
    </button>
  );
}
