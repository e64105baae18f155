import { env } from '@spinroom/platform/core';
import { z } from 'zod';

/**
 * The passkeys area's environment (spread into the user service's config).
 * The defaults match `npm start`'s web client, http://localhost:8080.
 */
export const passkeysConfig = {
  /** The WebAuthn relying party id: the web client's host name (a passkey only works on that host and its subdomains). */
  WEBAUTHN_RP_ID: z.string().min(1).default('localhost'),
  /** The name authenticators show for the relying party. */
  WEBAUTHN_RP_NAME: z.string().min(1).default('Spinroom'),
  /** Origins (comma-separated, scheme://host[:port]) the browser may report for a ceremony: where the web client is served. */
  WEBAUTHN_ORIGINS: env.list().default(['http://localhost:8080']),
};
