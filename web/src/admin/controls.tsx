import { useState } from 'react';
import { fill, useT } from '../i18n/i18n';
import { usePanelT } from './strings';

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
