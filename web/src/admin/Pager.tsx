import { fill, useT } from '../i18n/i18n';

/** Previous and next page buttons with "Page n of m" (pages from 1). */
export function Pager({ page, pages, onPage, label }: { page: number; pages: number; onPage: (page: number) => void; label: string }) {
  const t = useT();
  const last = Math.max(1, pages);
  return (
    <nav className="row" aria-label={label}>
      <button type="button" onClick={() => onPage(page - 1)} disabled={page <= 1}>
        {t.previousPage}
      </button>
      <span>{fill(t.pageOf, { page, pages: last })}</span>
      <button type="button" onClick={() => onPage(page + 1)} disabled={page >= last}>
        {t.nextPage}
      </button>
    </nav>
  );
}
