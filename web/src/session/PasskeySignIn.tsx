// "Sign in with a passkey": request options from the server, the browser's
// passkey prompt (@simplewebauthn/browser), then the signed answer traded for
// a session like any other way in (startSession).
import { browserSupportsWebAuthn, startAuthentication } from '@simplewebauthn/browser';
import { useMutation } from '@tanstack/react-query';
import { passkeys } from '../api/passkeys';
import { ErrorNote } from '../app/ErrorNote';
import { useT } from '../i18n/i18n';
import { startSession } from './startSession';

/**
 * Runs one browser passkey ceremony; a refusal or cancel in the browser (not
 * the server) becomes `cancelled`, a sentence the person can act on.
 */
export async function inBrowser<T>(ceremony: () => Promise<T>, cancelled: string): Promise<T> {
  try {
    return await ceremony();
  } catch {
    throw new PasskeyPromptError(cancelled);
  }
}

export class PasskeyPromptError extends Error {}

export function PasskeySignIn() {
  const t = useT();
  const signIn = useMutation({
    mutationFn: async () => {
      const optionsJSON = await passkeys.authenticationOptions();
      return passkeys.signIn(await inBrowser(() => startAuthentication({ optionsJSON }), t.passkeyCancelled));
    },
    onSuccess: startSession,
  });
  if (!browserSupportsWebAuthn()) return null;
  return (
    <div className="stack">
      <button type="button" onClick={() => signIn.mutate()} disabled={signIn.isPending}>
        {t.passkeySignIn}
      </button>
      <ErrorNote error={signIn.error instanceof PasskeyPromptError ? signIn.error.message : signIn.error} />
    </div>
  );
}
