// The mark on a crate's song that repeats an earlier one (spec 002's sameness
// rule, src/crates/sameness.ts's duplicatesIn): "Same song as #n".
import { fill, useT } from '../i18n/i18n';
import './music.css';

/** `of`: the index of the first song it repeats, if it repeats one. */
export function DuplicateMark({ of }: { of: number | undefined }) {
  const t = useT();
  if (of === undefined) return null;
  return (
    <span className="duplicate-mark" data-duplicate-of={of + 1}>
      ⚠ {fill(t.sameAs, { n: of + 1 })}
    </span>
  );
}
