// A guest who asks to sign up or log in from where they are (a room, say)
// leaves the guest session for the sign-in screen without leaving the page's
// address, so the new session opens the same page again (startSession keeps
// a deep link). The screen opens on the tab they asked for.
import { session } from './session';

export type AuthMode = 'signup' | 'login';

let wanted: AuthMode = 'signup';

/** The tab the sign-in screen opens on (#/login aside). */
export function wantedAuthMode(): AuthMode {
  return wanted;
}

/** Ends the current session (a guest's, or a user's logging out) and opens the sign-in screen on `mode`. */
export function openSignIn(mode: AuthMode): void {
  wanted = mode;
  session.signOut();
}
