import { defineEntity, p } from '@mikro-orm/postgresql';
import type { LinkedProvider, ProviderClient } from '../domain/providers/ports.js';

/** `provider_link`: a user's link to a music provider; its tokens are TokenCipher ciphertexts. */
export const ProviderLinkEntity = defineEntity({
  name: 'ProviderLink',
  tableName: 'provider_link',
  properties: {
    userUuid: p.uuid().primary(),
    provider: p.string().$type<LinkedProvider>().primary(),
    client: p.string().$type<ProviderClient>().primary(),
    accessToken: p.text().nullable(),
    accessExpiresAt: p.datetime().nullable(),
    refreshToken: p.text().nullable(),
    scope: p.text().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
