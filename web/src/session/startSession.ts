import type { AccessGrant } from '../api/types';
import { parseRoute } from '../app/router';
import { session, tokenClaims } from './session';

/**
 * Every way in ends here (sign-up, password, phone code, mailed link, guest,
 * passkey): the grant becomes the session, of the kind its token's role says.
 * From the log-in page (#/login) the person lands in the lobby; from a deep
 * link (a room's address) they stay where they were going.
 */
export function startSession(grant: AccessGrant): void {
  const role = tokenClaims(grant.accessToken).role;
  session.signIn(grant.accessToken, grant.userUuid, role === 'guest' ? 'guest' : role === 'bot' ? 'bot' : 'user');
  if (parseRoute(window.location.hash).name === 'login') window.location.replace('#/');
}
