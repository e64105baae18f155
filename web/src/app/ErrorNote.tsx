import { errorText } from '../api/errors';

/** An error as spec 002 §8 shows it, announced to screen readers. */
export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p className="error" role="alert">
      {errorText(error)}
    </p>
  );
}
