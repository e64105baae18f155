// The passkeys area's REST calls (Spinroom's own paths: spec 000 has none).
// Options and answers are the WebAuthn JSON encodings @simplewebauthn/browser
// reads and writes; the user service verifies them.
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { api, USER } from './client';
import type { AccessGrant } from './types';

export interface Passkey {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  backedUp: boolean;
}

const PASSKEYS = `${USER}/passkeys`;

export const passkeys = {
  list: () => api.get<Passkey[]>(PASSKEYS),
  registrationOptions: () => api.post<PublicKeyCredentialCreationOptionsJSON>(`${PASSKEYS}/registration-options`),
  register: (response: RegistrationResponseJSON, name: string) =>
    api.post<Passkey>(`${PASSKEYS}/register`, { response, ...(name.trim() ? { name: name.trim() } : {}) }),
  remove: (id: string) => api.delete<object>(`${PASSKEYS}/${encodeURIComponent(id)}`),
  authenticationOptions: () =>
    api.post<PublicKeyCredentialRequestOptionsJSON>(`${PASSKEYS}/authentication-options`, undefined, { anonymous: true }),
  signIn: (response: AuthenticationResponseJSON) => api.post<AccessGrant>(`${PASSKEYS}/sign-in`, { response }, { anonymous: true }),
};
