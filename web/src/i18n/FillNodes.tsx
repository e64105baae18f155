import { Fragment, type ReactNode } from 'react';

/**
 * A template's `{name}` placeholders filled in with elements, in the order the
 * language puts them: a button whose name is "Use {name} for {cost}" can show
 * some parts and keep others for screen readers only (`sr-only`), its
 * accessible name still being the whole sentence.
 */
export function FillNodes({
  template,
  values,
  literalClass,
}: {
  template: string;
  values: Record<string, ReactNode>;
  /** A class for the template's own words (e.g. `sr-only`: only the values show). */
  literalClass?: string;
}) {
  // Each part keyed by where it starts in the template: unique, and the same on every render.
  let at = 0;
  const parts = template
    .split(/(\{\w+\})/)
    .filter(Boolean)
    .map((part) => {
      const key = at;
      at += part.length;
      return { key, part, name: /^\{(\w+)\}$/.exec(part)?.[1] };
    });
  return (
    <>
      {parts.map(({ key, part, name }) => {
        if (name !== undefined && name in values) return <Fragment key={key}>{values[name]}</Fragment>;
        if (literalClass && part)
          return (
            <span key={key} className={literalClass}>
              {part}
            </span>
          );
        return <Fragment key={key}>{part}</Fragment>;
      })}
    </>
  );
}
