import { errorText } from '../api/errors';
import { useLocale } from '../i18n/i18n';

/** An error as spec 002 §8 shows it, in the chosen language, announced to screen readers. */
export function ErrorNote({ error }: { error: unknown }) {
  const locale = useLocale();
  if (!error) return null;
  return (
    <p className="error" role="alert">
      {errorText(error, locale)}
    </p>
  );
}
