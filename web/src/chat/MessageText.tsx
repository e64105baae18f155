import { useT } from '../i18n/i18n';
import { mentionName, segments, type Mention } from './mentions';

/** Chat text with each mention (a `<@uid:...>` token, or an `@nickname` its metadata lists) shown as `@nickname`, marked. */
export function MessageText({
  text,
  mentions = [],
  names,
  meUuid,
}: {
  text: string;
  mentions?: readonly Mention[];
  names: Map<string, string>;
  meUuid: string | null;
}) {
  const t = useT();
  return (
    <>
      {segments(text, mentions).map((s, i) =>
        s.kind === 'text' ? (
          s.text
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one text, in order; the text is rendered whole
          <mark key={i} className={s.uuid === meUuid ? 'mention me' : 'mention'} data-uuid={s.uuid}>
            @{mentionName(s, names, t.mentionSomeone)}
          </mark>
        ),
      )}
    </>
  );
}
