// `npm run seed:admin -w @spinroom/user`: creates the demo admin account from
// SPINROOM_ADMIN_EMAIL / SPINROOM_ADMIN_PASSWORD (npm start runs it).
import { loadConfigOrExit, openServiceDatabase, TokenIssuer } from '@spinroom/platform';
import { z } from 'zod';
import { userServiceConfig } from '../config.js';
import { Accounts } from '../domain/accounts.js';
import { PasswordHasher } from '../domain/passwords.js';
import { userSignedUp } from '../events/user-events.js';
import { userDatabase } from './database.js';
import { PgUserStore } from './user-store.js';

const config = loadConfigOrExit({
  DATABASE_URL: userServiceConfig.DATABASE_URL,
  JWT_PRIVATE_KEY: userServiceConfig.JWT_PRIVATE_KEY,
  JWT_ISSUER: userServiceConfig.JWT_ISSUER,
  SPINROOM_ADMIN_EMAIL: z.email(),
  SPINROOM_ADMIN_PASSWORD: z.string().min(8),
});
const orm = await openServiceDatabase('user', config.DATABASE_URL, userDatabase);
const tokens = await TokenIssuer.fromPem(config.JWT_PRIVATE_KEY, { issuer: config.JWT_ISSUER, ttlSeconds: 3600 });
// The sign-up event is staged in the outbox; the running service relays it.
const accounts = new Accounts(new PgUserStore(orm), new PasswordHasher(), tokens, userSignedUp);
const { created } = await accounts.ensureAdmin({
  email: config.SPINROOM_ADMIN_EMAIL,
  password: config.SPINROOM_ADMIN_PASSWORD,
  nickname: 'admin',
});
console.log(created ? `admin ${config.SPINROOM_ADMIN_EMAIL} created` : `admin ${config.SPINROOM_ADMIN_EMAIL} already exists`);
await orm.close();
