import { defineEntity, p } from '@mikro-orm/postgresql';

/** `user_passkey`: a WebAuthn credential of an account (its public key; the private key never leaves the authenticator). */
export const UserPasskeyEntity = defineEntity({
  name: 'UserPasskey',
  tableName: 'user_passkey',
  properties: {
    id: p.uuid().primary(),
    userUuid: p.uuid(),
    credentialId: p.string().unique(),
    publicKey: p.blob(),
    counter: p.bigint('number'),
    transports: p.array(),
    name: p.string(),
    backedUp: p.boolean(),
    createdAt: p.datetime(),
    lastUsedAt: p.datetime().nullable(),
  },
});
